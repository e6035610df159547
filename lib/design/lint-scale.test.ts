import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { formatFunctionDefinitions, type ChatCompletionFunctionDefinition } from 'gpt-tokenizer/functionCalling';
import { describe, expect, it } from 'vitest';
import { readToolFile, type ImportedTool } from '../mcp/tools';
import { generatedCatalog } from '../testing/lint-catalog';
import { LintTimeoutError, lintTools } from './lint';
import { normalText, OVERLAP, similarPairs, wordSet } from './lint-overlap';
import { codeRange, nameTokens } from './lint-text';
import { boundedTokenCount } from './tokens';

// The linter at scale (docs/benchmarks-lint.md): the indexed overlap and the linear scans find exactly what comparing
// all pairs and the backtracking patterns found; the generated catalog's planted pairs are all found.

const fixtures = path.join(process.cwd(), 'lib/mcp/fixtures/mcp-tools');
const read = (f: string) => readToolFile(JSON.parse(readFileSync(path.join(fixtures, f), 'utf8'))).tools;
const snapshots = readdirSync(path.join(fixtures, 'reference-servers-snapshots')).filter((f) => f.endsWith('.json'));
const realCatalogs: [string, ImportedTool[]][] = [
  ['github-mcp-server (117 tools)', read('github-mcp-server/tools_list.json')],
  ...snapshots.map((f): [string, ImportedTool[]] => [f, read(`reference-servers-snapshots/${f}`)]),
];
// every real tool in one catalog, twice over with a word changed in the copies: pairs to find across servers
const everything = realCatalogs.flatMap(([, tools]) => tools);
const doubled = [...everything, ...everything.map((t) => ({ ...t, description: t.description.replace(/\b(\w+)\W*$/, 'changed') }))];

/** The definition: every pair compared (what lint.ts did before the index). */
function allPairs(descriptions: string[]): string[] {
  const found: string[] = [];
  const jaccard = (x: Set<string>, y: Set<string>) => {
    if (x.size === 0 && y.size === 0) return 1;
    let both = 0;
    for (const w of x) if (y.has(w)) both++;
    return both / (x.size + y.size - both);
  };
  const normal = descriptions.map(normalText);
  const sets = normal.map((n) => wordSet(n));
  for (let i = 0; i < descriptions.length; i++)
    for (let j = i + 1; j < descriptions.length; j++) {
      if (normal[i] === normal[j]) found.push(`${i}=${j}`);
      else if (jaccard(sets[i], sets[j]) >= OVERLAP) found.push(`${i}~${j}:${jaccard(sets[i], sets[j])}`);
    }
  return found;
}
const indexed = (descriptions: string[]) => similarPairs(descriptions).flatMap((pairs, i) => pairs.map((p) => (p.same ? `${i}=${p.j}` : `${i}~${p.j}:${p.share}`)));

describe('the overlap index', () => {
  it('finds the pairs that comparing all pairs finds, on real catalogs and on all of them together twice over', () => {
    for (const [, tools] of realCatalogs) expect(indexed(tools.map((t) => t.description))).toEqual(allPairs(tools.map((t) => t.description)));
    const expected = allPairs(doubled.map((t) => t.description));
    expect(expected.length).toBeGreaterThan(everything.length / 2); // the copies are found, and more
    expect(indexed(doubled.map((t) => t.description))).toEqual(expected);
  });

  it('finds the same pairs on a generated catalog, short and empty descriptions included', () => {
    const descriptions = [...generatedCatalog(600).tools.map((t) => t.description), '', '—', '...', 'a b c d e', 'e d c b a', 'A  B c D e', 'x'];
    const expected = allPairs(descriptions);
    expect(expected).toEqual(expect.arrayContaining(['600~601:1', '600~602:1', '603=605', '603~604:1']));
    expect(indexed(descriptions)).toEqual(expected);
  });

  it('lints a generated catalog of 2,000 tools and finds every planted duplicate and overlap', () => {
    const tools = readToolFile(generatedCatalog(2000)).tools;
    const findings = lintTools(tools);
    const pairs = (rule: string) => findings.filter((f) => f.rule === rule).map((f) => f.tool);
    for (let i = 211; i < 2000; i += 211) expect(pairs('duplicate-description')).toContain(tools[i - 1].name);
    for (let i = 97; i < 2000; i += 97) if (i % 211 !== 0) expect(pairs('overlapping-descriptions')).toContain(tools[i - 1].name);
  });

  it('stops with a LintTimeoutError once its deadline has passed', () => {
    const tools = readToolFile(generatedCatalog(50)).tools;
    expect(() => lintTools(tools, { deadline: { at: Date.now() - 1, timeoutMs: 5 } })).toThrow(LintTimeoutError);
    expect(() => lintTools(tools, { deadline: { at: Date.now() - 1, timeoutMs: 5 } })).toThrow('did not finish within 5 ms (--timeout-ms)');
    expect(lintTools(tools, { deadline: { at: Date.now() + 60_000, timeoutMs: 60_000 } })).toEqual(lintTools(tools));
  });
});

describe('the linear scans', () => {
  // random text from the characters that matter to each pattern
  let seed = 1;
  const random = (alphabet: string[], n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      s += alphabet[seed % alphabet.length];
    }
    return s;
  };

  it('find the name-like tokens the backtracking pattern found', () => {
    const NAME = /[A-Za-z_][A-Za-z0-9]*(?:[._\-/:][A-Za-z0-9]+)+/g;
    for (let k = 0; k < 3000; k++) {
      const s = random(['a', 'B', '1', '_', '.', '-', '/', ':', ' ', 'é', 'amazon'], 1 + (k % 40));
      expect(nameTokens(s), s).toEqual(s.match(NAME) ?? []);
    }
    expect(nameTokens('a.b c.d e.f', 2)).toEqual(['a.b', 'c.d']);
  });

  it('find the range of codes the backtracking pattern found', () => {
    const CODE_RANGE = /(\bcodes?\b|status|代碼|狀態)[^.。]*?\b(\d+)\s*(?:to|-|–|—|~|through|至|到)\s*(\d+)\b/i;
    const parts = ['code', 'codes', 'Status', 'status', '代碼', '.', '。', ' ', '4', '69', '-', ' to ', 'x', 's', '至'];
    for (let k = 0; k < 5000; k++) {
      const s = random(parts, 1 + (k % 25));
      const m = CODE_RANGE.exec(s);
      expect(codeRange(s), s).toEqual(m ? [m[2], m[3]] : null);
    }
  });

  it('count the tokens of a catalog in pieces exactly as in one piece', () => {
    for (const tools of [everything, readToolFile(generatedCatalog(300)).tools]) {
      const text = formatFunctionDefinitions(
        tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) as unknown as ChatCompletionFunctionDefinition[],
      );
      let pieces = 0;
      expect(boundedTokenCount(text, () => pieces++, 500)).toBe(countTokens(text));
      expect(pieces).toBeGreaterThan(20);
    }
  });
});
