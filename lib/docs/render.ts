// The project's Markdown read one way, for the docs links test (scripts/docs-links.ts) and the docs served in
// the app (app/docs): markdown-it with raw HTML off (it is shown as text), headings slugged as GitHub slugs
// them (github-slugger: lower case, punctuation dropped, spaces to hyphens, -1, -2 … for repeats).
import path from 'node:path';
import MarkdownIt, { type Token } from 'markdown-it';
import GithubSlugger from 'github-slugger';

const md = new MarkdownIt({ html: false, linkify: false });

/** The visible text of an inline token, as GitHub slugs a heading from it (code spans without their backticks). */
export function textOf(inline: Token): string {
  return (inline.children ?? []).map((t) => (t.type === 'text' || t.type === 'code_inline' ? t.content : t.type === 'image' ? textOf(t) : '')).join('');
}

/** Every heading's anchor, in document order, with GitHub's -1, -2 … for repeated headings. */
export function headingSlugs(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const tokens = md.parse(markdown, {});
  const out = new Set<string>();
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') out.add(slugger.slug(textOf(tokens[i + 1])));
  });
  return out;
}

/** Parsed Markdown, for a reader that walks the tokens. */
export const parseMarkdown = (markdown: string): Token[] => md.parse(markdown, {});

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * One page of Markdown as HTML for the app: each heading gets its GitHub anchor; a link to another page of
 * docs/ (or the README) goes to its page in the app (`docUrl`), anchor kept; an external http(s) link opens
 * as it is; a link to anything else (a source file the app does not serve) is left as its text.
 * `file` is the page's path from the project's root (docs/statistics.md, README.md).
 */
export function renderMarkdown(markdown: string, file: string, docUrl: (file: string) => string | null): { title: string; html: string } {
  const tokens = md.parse(markdown, {});
  const slugger = new GithubSlugger();
  let title = '';
  const links = (children: Token[]) => {
    const opened: Token[] = [];
    for (const t of children) {
      if (t.type === 'link_open') {
        const href = String(t.attrGet('href') ?? '');
        let to: string | null;
        if (EXTERNAL.test(href)) to = /^(https?|mailto):/i.test(href) ? href : null;
        else if (href.startsWith('#')) to = href;
        else {
          const [target, anchor] = href.split('#', 2);
          const page = docUrl(path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(target))));
          to = page === null ? null : `${page}${anchor ? `#${anchor}` : ''}`;
        }
        opened.push(t);
        if (to === null) {
          t.tag = 'span';
          t.attrs = null;
        } else t.attrSet('href', to);
      } else if (t.type === 'link_close') {
        const open = opened.pop();
        if (open?.tag === 'span') t.tag = 'span';
      } else if (t.type === 'image') {
        // pictures of the docs are not served: their text stands in
        t.type = 'text';
        t.content = `[${textOf(t)}]`;
      }
    }
  };
  tokens.forEach((t, i) => {
    if (t.type === 'heading_open') {
      const text = textOf(tokens[i + 1]);
      t.attrSet('id', slugger.slug(text));
      if (!title && t.tag === 'h1') title = text;
    }
    if (t.type === 'inline' && t.children) links(t.children);
  });
  return { title: title || path.posix.basename(file, '.md'), html: md.renderer.render(tokens, md.options, {}) };
}
