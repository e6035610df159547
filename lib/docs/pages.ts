// The docs served in the app (app/docs): the Markdown pages of docs/ and the README, read from the checkout
// the server runs in, rendered read-only (lib/docs/render.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderMarkdown } from './render';

const ROOT = process.cwd();
const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/** A page's file from the project's root by its slug (`readme` is the README), or null. */
function fileOf(slug: string): string | null {
  if (!SLUG.test(slug)) return null;
  if (slug === 'readme') return 'README.md';
  return docSlugs().includes(slug) ? `docs/${slug}.md` : null;
}

function docSlugs(): string[] {
  return readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3))
    .filter((s) => SLUG.test(s) && s !== 'readme')
    .sort();
}

/** The app's address of a file of the project (docs/statistics.md → /docs/statistics, README.md → /docs/readme), or null. */
export function docUrl(file: string): string | null {
  if (file === 'README.md') return '/docs/readme';
  const m = /^docs\/([a-z0-9][a-z0-9-]*)\.md$/.exec(file);
  return m && docSlugs().includes(m[1]) ? `/docs/${m[1]}` : null;
}

/** Every page with its title (its first heading), the README first. */
export function listDocs(): { slug: string; title: string }[] {
  return ['readme', ...docSlugs()].map((slug) => ({ slug, title: readDoc(slug)!.title }));
}

/** One page rendered, or null when there is no such page. */
export function readDoc(slug: string): { slug: string; title: string; html: string } | null {
  const file = fileOf(slug);
  if (file === null) return null;
  const { title, html } = renderMarkdown(readFileSync(path.join(ROOT, file), 'utf8'), file, docUrl);
  return { slug, title, html };
}
