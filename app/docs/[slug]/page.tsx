import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageActor } from '@/app/_auth/guard';
import { readDoc } from '@/lib/docs/pages';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ slug: string }> }): Promise<Metadata> {
  return { title: readDoc((await params).slug)?.title ?? 'Docs' };
}

export default async function DocPage({ params }: { params: Promise<{ slug: string }> }) {
  await pageActor('read');
  const doc = readDoc((await params).slug);
  if (!doc) notFound();
  return (
    <>
      <p className="small">
        <Link href="/docs">Docs</Link>
      </p>
      {/* the project's own Markdown, rendered with raw HTML off (lib/docs/render.ts): text, tables, code and links */}
      <article className="doc" data-testid="doc" dangerouslySetInnerHTML={{ __html: doc.html }} />
    </>
  );
}
