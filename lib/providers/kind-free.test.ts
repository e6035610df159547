import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Provider adapters know messages, tools and tool results, never study kinds, and neither do the simulated models (lib/simulator). Every study
// kind reaches a provider as a transcript (lib/schema/request.ts); what a kind adds (the interpretation
// study's injected call) is a step of that transcript, built by the kind's module in lib/studies.

const DIR = import.meta.dirname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) && !/\.(test|itest)\.tsx?$/.test(e.name) ? [p] : [];
  });
}

const FORBIDDEN: [string, RegExp][] = [
  ['a kind read off a request or study', /\b(request|req|study|prep|trial)\??\.kind\b/],
  ['a branch on a study kind', /\bkind\s*[!=]==?\s*['"](selection|interpretation|task)['"]/],
  ['a study kind type', /\bStudyKind\b/],
  ['an import of lib/studies', /from\s+['"][^'"]*\/studies\//],
  ['the old interpretation field of a request', /\.interpretation\b/],
];

describe('lib/providers and the simulated models know no study kind', () => {
  const LIB = path.join(DIR, '..');
  const files = [...sources(DIR), ...sources(path.join(LIB, 'simulator'))];

  it('finds the adapters it checks', () => {
    const names = files.map((f) => path.relative(LIB, f));
    expect(names).toEqual(
      expect.arrayContaining([
        'providers/openai.ts',
        'providers/anthropic.ts',
        'providers/gemini.ts',
        'providers/openai-compatible.ts',
        'providers/simulated.ts',
        'simulator/index.ts',
        'simulator/task.ts',
      ]),
    );
  });

  it('has no kind branch in any adapter (request.kind, study.kind, kind === "…", StudyKind, lib/studies)', () => {
    const hits = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => FORBIDDEN.filter(([, re]) => re.test(line)).map(([what]) => `${path.relative(LIB, f)}:${i + 1}: ${what}: ${line.trim()}`)),
    );
    expect(hits).toEqual([]);
  });

  it('the patterns catch what they name (the check cannot pass vacuously)', () => {
    const probe = [
      "if (request.kind === 'interpretation') {",
      'const k: StudyKind = study.kind;',
      "import { KINDS } from '../studies/registry';",
      'request.interpretation?.call',
    ];
    for (const line of probe)
      expect(
        FORBIDDEN.some(([, re]) => re.test(line)),
        line,
      ).toBe(true);
  });
});
