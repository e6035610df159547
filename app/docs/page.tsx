import type { Metadata } from 'next';
import Link from 'next/link';
import { pageActor } from '@/app/_auth/guard';
import { listDocs } from '@/lib/docs/pages';

export const metadata: Metadata = { title: 'Docs' };

export const dynamic = 'force-dynamic';

export default async function DocsPage() {
  await pageActor('read');
  const pages = listDocs();
  return (
    <>
      <h1>Docs</h1>
      <p className="muted">The user guide, the method and the design, as the repository holds them.</p>
      <ul data-testid="docs-list">
        {pages.map((p) => (
          <li key={p.slug}>
            <Link href={`/docs/${p.slug}`}>{p.title}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}
