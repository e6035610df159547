import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docUrl, listDocs, readDoc } from './pages';
import { headingSlugs, renderMarkdown } from './render';

// The docs the app serves (app/docs): every page of docs/ and the README, headings with GitHub's anchors,
// links between pages pointing at the app's pages, raw HTML shown as text, nothing outside docs/ readable;
// and every mention of a docs page in the app (<DocLink page anchor>) names a page and a heading that exist.

describe('the docs served in the app', () => {
  it('lists the README and every page of docs/, each with its title', () => {
    const pages = listDocs();
    const files = readdirSync('docs').filter((f) => f.endsWith('.md'));
    expect(pages.map((p) => p.slug)).toEqual(['readme', ...files.map((f) => f.slice(0, -3)).sort()]);
    expect(pages.find((p) => p.slug === 'statistics')!.title).toBe(readFileSync('docs/statistics.md', 'utf8').split('\n')[0].replace(/^# /, ''));
    for (const p of pages) expect(p.title, p.slug).not.toBe('');
  });

  it('renders a page: heading anchors as GitHub makes them, links to pages of the app, source files as text', () => {
    const doc = readDoc('statistics')!;
    for (const slug of headingSlugs(readFileSync('docs/statistics.md', 'utf8'))) expect(doc.html).toContain(`id="${slug}"`);
    const html = renderMarkdown(
      '# T\n\nSee [the design](design.md#the-floors), [the README](../README.md), [a source](../lib/stats/mcnemar.ts), [a site](https://example.org/x) and <script>alert(1)</script>.\n',
      'docs/statistics.md',
      docUrl,
    ).html;
    expect(html).toContain('<a href="/docs/design#the-floors">the design</a>');
    expect(html).toContain('<a href="/docs/readme">the README</a>');
    expect(html).toContain('<span>a source</span>');
    expect(html).toContain('<a href="https://example.org/x">a site</a>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });

  it('reads nothing outside docs/', () => {
    for (const slug of ['../package', '..', 'readme/../../etc/passwd', 'no-such-page', 'Statistics', '', '.env']) expect(readDoc(slug), slug).toBeNull();
  });

  it('every mention of a docs page in the app links to a page and heading that exist', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = path.join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx$/.test(f)) sources.push(p);
      }
    };
    walk('app');
    walk('components');
    let mentions = 0;
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/<DocLink page="([^"]+)"(?: anchor="([^"]+)")?/g)) {
        mentions++;
        const doc = readDoc(m[1]);
        expect(doc, `${file}: docs/${m[1]}.md`).not.toBeNull();
        if (m[2]) expect([...headingSlugs(readFileSync(`docs/${m[1]}.md`, 'utf8'))], `${file}: #${m[2]}`).toContain(m[2]);
      }
      // a mention in the page's text is a link, not the bare file name
      const bare = text
        .split('\n')
        .filter((l) => !/^\s*(\/\/|\/\*|\*|\{\/\*)/.test(l))
        .filter((l) => /[>(\s]docs\/[a-z-]+\.md/.test(l));
      expect(bare, `${file}: docs named as plain text`).toEqual([]);
    }
    expect(mentions).toBeGreaterThan(3);
  });
});
