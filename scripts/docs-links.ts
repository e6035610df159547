// The links of the project's Markdown (README.md and docs/**/*.md), read with markdown-it (links in code
// are not links) and checked: a relative link's file exists, its #anchor is a heading of the target as
// GitHub slugs it (github-slugger: lower case, punctuation dropped, spaces to hyphens, -1, -2 … for repeats);
// an external link (http, https, mailto) is only checked to be a well-formed URL.
import fs from 'node:fs';
import path from 'node:path';
import type { Token } from 'markdown-it';
import { headingSlugs, parseMarkdown } from '../lib/docs/render';

export { headingSlugs };

export interface DocLink {
  href: string;
  line: number;
  image: boolean;
}

/** Every link and image in the text (not those inside code spans or blocks). */
export function linksOf(markdown: string): DocLink[] {
  const out: DocLink[] = [];
  for (const block of parseMarkdown(markdown)) {
    if (block.type !== 'inline') continue;
    const line = (block.map?.[0] ?? 0) + 1;
    const walk = (tokens: Token[]) => {
      for (const t of tokens) {
        if (t.type === 'link_open') out.push({ href: String(t.attrGet('href') ?? ''), line, image: false });
        if (t.type === 'image') out.push({ href: String(t.attrGet('src') ?? ''), line, image: true });
        if (t.children) walk(t.children);
      }
    };
    walk(block.children ?? []);
  }
  return out;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The problems of one Markdown file's links, each as `file:line: href — why`. `read` gives a file's text
 * (null: no such file), `exists` whether a path is a file or directory; both take absolute paths.
 */
export function checkLinks(file: string, markdown: string, io: { read: (p: string) => string | null; exists: (p: string) => boolean }): string[] {
  const problems: string[] = [];
  const slugCache = new Map<string, Set<string> | null>();
  const slugsOf = (p: string) => {
    if (!slugCache.has(p)) {
      const text = p === file ? markdown : io.read(p);
      slugCache.set(p, text === null ? null : headingSlugs(text));
    }
    return slugCache.get(p)!;
  };
  for (const { href, line } of linksOf(markdown)) {
    const where = `${file}:${line}: ${href || '(empty)'}`;
    if (href === '') {
      problems.push(`${where} — an empty link`);
      continue;
    }
    if (EXTERNAL.test(href)) {
      const scheme = href.slice(0, href.indexOf(':')).toLowerCase();
      if (!['http', 'https', 'mailto'].includes(scheme)) problems.push(`${where} — scheme "${scheme}" is neither http(s) nor mailto`);
      else if (!URL.canParse(href) || (scheme !== 'mailto' && !new URL(href).hostname)) problems.push(`${where} — not a well-formed URL`);
      continue;
    }
    if (href.startsWith('/')) {
      problems.push(`${where} — an absolute path: link relative to the file`);
      continue;
    }
    const hash = href.indexOf('#');
    const target = decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
    const anchor = hash < 0 ? null : decodeURIComponent(href.slice(hash + 1));
    const resolved = target === '' ? file : path.resolve(path.dirname(file), target);
    if (!io.exists(resolved)) {
      problems.push(`${where} — no such file: ${target}`);
      continue;
    }
    if (anchor === null) continue;
    if (!resolved.endsWith('.md')) {
      problems.push(`${where} — an anchor into a file that is not Markdown`);
      continue;
    }
    const slugs = slugsOf(resolved);
    if (!slugs?.has(anchor)) problems.push(`${where} — no heading "#${anchor}" in ${path.basename(resolved)}`);
  }
  return problems;
}

/** README.md and every Markdown file under docs/, absolute paths. */
export function projectMarkdownFiles(root: string): string[] {
  const docs = path.join(root, 'docs');
  const under = fs.existsSync(docs) ? fs.readdirSync(docs, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')) : [];
  return [path.join(root, 'README.md'), ...under.sort().map((f) => path.join(docs, f))];
}

export const fileSystem = {
  read: (p: string): string | null => (fs.existsSync(p) && fs.statSync(p).isFile() ? fs.readFileSync(p, 'utf8') : null),
  exists: (p: string): boolean => fs.existsSync(p),
};
