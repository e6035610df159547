import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headingSlugs } from './docs-links';
import { lineMatches, walkFiles } from './scan';

// The code explains itself from the repository: a comment (or a string) cites a page of docs/ — the design
// is docs/design.md — never a design paper or an issue tracker someone who clones the project cannot read.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['lib', 'app', 'components', 'cli', 'workers'];
/** Where no outside reference may stand: the code, the browser tests and the scripts (but these checks' own probes). */
const CITING = [...FOLDERS, 'e2e', 'scripts'];
const PROBES = new Set(['scripts/citations.test.ts', 'scripts/docs-links.test.ts']);
const SKIP = new Set(['node_modules', 'generated', '.next']);
const TEXT = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|md|csv|xml|tex|txt|sql|css)$/;
const OUTSIDE = /DESIGN(?:\.md)? ?§|RESEARCH(?:\.md)? ?§|\bshared\/(?:DESIGN|RESEARCH)|\b[Ii]ssues? [0-9]+/g;

/** Each `file:line: match` of a reference to something outside the repository in `text`. */
export function outsideReferences(file: string, text: string): string[] {
  return lineMatches(file, text, OUTSIDE);
}

const walk = (dir: string) => walkFiles(dir, SKIP, (name) => TEXT.test(name));

describe('references outside the repository', () => {
  it('finds a design section, a research section and an issue number, and nothing else', () => {
    const text = ['// Wilson (DESIGN §7)', '/* see RESEARCH §3 */', '// Issue 22.3: ids', '// (issue 24 item 5)', '// docs/design.md#scoring-rules, tissue 3'].join('\n');
    expect(outsideReferences('x.ts', text)).toEqual(['x.ts:1: DESIGN §', 'x.ts:2: RESEARCH §', 'x.ts:3: Issue 22', 'x.ts:4: issue 24']);
  });

  it(`none in ${CITING.join(', ')}: comments cite docs/ pages`, () => {
    const files = CITING.flatMap((f) => [...walk(path.join(root, f))]).filter((f) => !PROBES.has(path.relative(root, f)));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => outsideReferences(path.relative(root, f), fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});

describe('the docs pages the code cites', () => {
  it('exist, and so do the headings they name', () => {
    const files = FOLDERS.flatMap((f) => [...walk(path.join(root, f))]).filter((f) => !f.includes(`${path.sep}golden${path.sep}`));
    const cited = new Set(files.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/\bdocs\/([a-z0-9-]+\.md)(#[a-z0-9-]+)?/g)].map((m) => m[1] + (m[2] ?? ''))));
    expect(cited.size).toBeGreaterThan(20);
    const broken = [...cited].filter((c) => {
      const [file, anchor] = c.split('#');
      const p = path.join(root, 'docs', file);
      if (!fs.existsSync(p)) return true;
      return anchor !== undefined && !headingSlugs(fs.readFileSync(p, 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});

describe('the files the code names', () => {
  it('exist: a comment that names a file of the repository names one that is there', () => {
    const named = /(?<![@\w/.-])(?:lib|app|components|cli|workers|scripts|e2e|docs|prisma)\/[\w.\/[\]-]*[\w\]]/g;
    const files = FOLDERS.flatMap((f) => [...walk(path.join(root, f))]).filter((f) => /\.(tsx?|mjs|cjs)$/.test(f));
    const missing = files.flatMap((f) =>
      [...fs.readFileSync(f, 'utf8').matchAll(named)]
        .map((m) => m[0])
        .filter((p) => !['', '.ts', '.tsx'].some((ext) => fs.existsSync(path.join(root, p + ext))))
        .map((p) => `${path.relative(root, f)}: ${p}`),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
