import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLinks, fileSystem, headingSlugs, linksOf, projectMarkdownFiles } from './docs-links';

// A README a newcomer reads to the end (≤ 250 lines), the rest in docs/, and every link works; the design the
// code's comments cite (docs/design.md) among them.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_README_LINES = 250;

describe('the checker', () => {
  const files: Record<string, string> = {
    '/r/README.md': '# Tool Contract Lab\n\n## Two commands\n\n## A five-minute tour\n',
    '/r/docs/a.md': '# Exports\n\n## Export fields (run JSON, `summary.studies[]`)\n\n## Notes\n\n## Notes\n',
    '/r/docs/img/run.png': '',
  };
  const io = { read: (p: string) => files[p] ?? null, exists: (p: string) => p in files || Object.keys(files).some((f) => f.startsWith(`${p}/`)) };

  it('slugs headings as GitHub does: lower case, punctuation and backticks dropped, repeats numbered', () => {
    expect([...headingSlugs(files['/r/docs/a.md'])]).toEqual(['exports', 'export-fields-run-json-summarystudies', 'notes', 'notes-1']);
    expect([...headingSlugs('## A five-minute tour\n\n## Who may do what: accounts, roles\n')]).toEqual(['a-five-minute-tour', 'who-may-do-what-accounts-roles']);
  });

  it('reads links and images, not what is inside code', () => {
    const text = 'See [a](docs/a.md#notes) and ![shot](docs/img/run.png).\n\n`[not](a link)`\n\n```\n[nor](this)\n```\n';
    expect(linksOf(text).map((l) => [l.href, l.image])).toEqual([
      ['docs/a.md#notes', false],
      ['docs/img/run.png', true],
    ]);
  });

  it('accepts links that resolve and names each one that does not', () => {
    const good = '[a](docs/a.md) [b](docs/a.md#notes-1) [c](#two-commands) ![d](docs/img/run.png) [e](docs/) [f](https://example.org/x#y) [g](mailto:a@b.org)';
    expect(checkLinks('/r/README.md', `## Two commands\n\n${good}\n`, io)).toEqual([]);
    const bad = [
      '[1](docs/missing.md)',
      '[2](docs/a.md#no-such-heading)',
      '[3](#nowhere)',
      '[4](docs/img/run.png#x)',
      '[5](http://)',
      '[6](ftp://example.org/f)',
      '[7](/abs/path.md)',
      '[8]()',
    ].join('\n\n');
    expect(checkLinks('/r/README.md', `# T\n\n${bad}\n`, io)).toEqual([
      '/r/README.md:3: docs/missing.md — no such file: docs/missing.md',
      '/r/README.md:5: docs/a.md#no-such-heading — no heading "#no-such-heading" in a.md',
      '/r/README.md:7: #nowhere — no heading "#nowhere" in README.md',
      '/r/README.md:9: docs/img/run.png#x — an anchor into a file that is not Markdown',
      '/r/README.md:11: http:// — not a well-formed URL',
      '/r/README.md:13: ftp://example.org/f — scheme "ftp" is neither http(s) nor mailto',
      '/r/README.md:15: /abs/path.md — an absolute path: link relative to the file',
      '/r/README.md:17: (empty) — an empty link',
    ]);
  });

  it('resolves a link relative to the file it is in', () => {
    const a = `${files['/r/docs/a.md']}\n[r](../README.md#a-five-minute-tour) [s](img/run.png) [t](#export-fields-run-json-summarystudies)\n`;
    expect(checkLinks('/r/docs/a.md', a, io)).toEqual([]);
    expect(checkLinks('/r/docs/a.md', '[r](README.md)\n', io)).toEqual(['/r/docs/a.md:1: README.md — no such file: README.md']);
  });
});

describe("the project's documentation", () => {
  const files = projectMarkdownFiles(root);

  it('has README.md and the guides under docs/', () => {
    expect(files[0]).toBe(path.join(root, 'README.md'));
    expect(files.length).toBeGreaterThan(10);
  });

  it('has docs/design.md, which the code cites, linked from README.md with the headings the comments name', () => {
    expect(files).toContain(path.join(root, 'docs', 'design.md'));
    expect(linksOf(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).map((l) => l.href)).toContain('docs/design.md');
    const slugs = headingSlugs(fs.readFileSync(path.join(root, 'docs', 'design.md'), 'utf8'));
    for (const anchor of [
      'vocabulary',
      'the-five-checkpoints',
      'failure-categories',
      'case-cards-tcc-v01',
      'scoring-rules',
      'the-reference-study',
      'the-statistics-it-relies-on',
      'providers-and-the-simulated-models',
      'the-floors',
    ])
      expect(slugs.has(anchor), anchor).toBe(true);
  });

  it('every link of README.md and docs/**/*.md resolves (files, headings; external links well-formed)', () => {
    const problems = files.flatMap((f) => checkLinks(f, fs.readFileSync(f, 'utf8'), fileSystem).map((p) => path.relative(root, p)));
    expect(problems).toEqual([]);
  });

  it(`keeps README.md at ${MAX_README_LINES} lines or fewer`, () => {
    const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it('keeps the images the docs show small (≤ 200 KB each)', () => {
    const images = files.flatMap((f) =>
      linksOf(fs.readFileSync(f, 'utf8'))
        .filter((l) => l.image && !/^[a-z]+:/i.test(l.href))
        .map((l) => path.resolve(path.dirname(f), l.href)),
    );
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(fs.statSync(image).size, path.relative(root, image)).toBeLessThanOrEqual(200 * 1024);
  });
});
