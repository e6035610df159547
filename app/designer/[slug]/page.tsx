import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { designerDestination, listVersions } from '@/lib/experiments/read';
import { getPriceTable } from '@/lib/runner/price-table';
import { checkDraft } from '@/lib/experiments/drafts';
import { Designer } from '@/components/designer/Designer';
import { pageActor } from '@/app/_auth/guard';
import { designerFields } from '@/lib/scoring/fields';
import { urls } from '@/lib/urls';

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  const { slug } = await pageParams(params);
  return { title: `Designer: ${slug}` };
}

export const dynamic = 'force-dynamic';

export default async function DesignerPage({ params }: { params: Promise<{ slug: string }> }) {
  await pageActor('experiment.write');
  const { slug } = await pageParams(params);
  const to = await designerDestination(slug);
  if (!to) notFound();
  // a link to a draft that has since been saved as a version opens that version
  if (to.kind === 'version') redirect(urls.experiment(to.experimentId, { from: 'designer' }));
  const draft = to.draft;
  const prices = await getPriceTable();
  const versions = await listVersions(slug);
  const nextVersion = (versions.at(-1)?.version ?? 0) + 1;
  return (
    <Designer
      slug={draft.slug}
      initial={draft.content}
      initialCheck={checkDraft(draft.content, prices)}
      prices={prices}
      baseVersion={draft.baseVersion}
      nextVersion={nextVersion}
      fields={designerFields()}
    />
  );
}
