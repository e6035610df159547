import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STUDY_KINDS } from '../lib/schema/study-kind';
import { lineMatches, walkFiles } from './scan';

// A study kind is one module (docs/architecture.md): what a kind needs in the export, the designer, the spec's
// checks or scoring is a hook of its KindModule (lib/studies), and its names are declared in lib/schema. Code
// elsewhere asks the kind's module; it never branches on a kind's name. Specs written as data (the templates, the
// importers, the designer's new study) name kinds as values, which is not a branch and is not looked for.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['lib', 'app', 'components', 'cli', 'workers'];
/** Where a kind's name may decide what code does. */
const HOME = ['lib/studies/', 'lib/schema/'];
const SKIP = new Set(['node_modules', 'generated', '.next', 'golden']);
const names = STUDY_KINDS.join('|');
const BRANCH = new RegExp(
  [`\\bkind\\s*[!=]==?\\s*['"](?:${names})['"]`, `['"](?:${names})['"]\\s*[!=]==?\\s*[\\w.?]*\\bkind\\b`, `\\bcase\\s+['"](?:${names})['"]\\s*:`].join('|'),
  'g',
);

/** Each `file:line: match` of a branch on a study kind's name in `text`. */
export function kindBranches(file: string, text: string): string[] {
  return lineMatches(file, text, BRANCH);
}

const walk = (dir: string) => walkFiles(dir, SKIP, (name) => /\.tsx?$/.test(name) && !/\.(test|itest|spec)\.tsx?$/.test(name));

describe('the study kind stays in its module', () => {
  it('finds a comparison with a kind, either way round, and a switch case, and not a kind named as data', () => {
    const text = [
      "if (study.kind === 'task') x();",
      "const y = 'interpretation' !== s.kind;",
      "  case 'selection':",
      "if (request.kind == 'task') {}",
      "const spec = { kind: 'selection', id: 'selection' };",
      "if (v.checkpoint === 'selection') {}",
    ].join('\n');
    expect(kindBranches('x.ts', text)).toEqual(["x.ts:1: kind === 'task'", "x.ts:2: 'interpretation' !== s.kind", "x.ts:3: case 'selection':", "x.ts:4: kind == 'task'"]);
  });

  it(`no branch on a kind's name in ${FOLDERS.join(', ')} outside ${HOME.join(' and ')}`, () => {
    const files = FOLDERS.flatMap((f) => [...walk(path.join(root, f))]).map((f) => path.relative(root, f).split(path.sep).join('/'));
    expect(files.length).toBeGreaterThan(100);
    const outside = files.filter((f) => !HOME.some((h) => f.startsWith(h)));
    const found = outside.flatMap((f) => kindBranches(f, fs.readFileSync(path.join(root, f), 'utf8')));
    expect(found).toEqual([]);
  });
});
