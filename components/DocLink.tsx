import Link from 'next/link';

/** A mention of a docs page, linked to the page as the app serves it (app/docs); the text names the file. */
export function DocLink({ page, anchor }: { page: string; anchor?: string }) {
  return <Link href={`/docs/${page}${anchor ? `#${anchor}` : ''}`}>docs/{page}.md</Link>;
}
