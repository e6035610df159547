import { describe, expect, it } from 'vitest';
import { countMatrix, expandTrials } from '../design/matrix';
import { lintExperiment } from '../design/lint';
import { planExperiment } from '../design/plan';
import { DEFAULT_PRICE_TABLE } from '../design/cost';
import { getTemplate } from './index';
import { politelyIgnored } from './politely-ignored';

describe('the seed 001 template (politely ignored)', () => {
  const spec = politelyIgnored();

  it('is registered and parses: six Amazon tools and a generic browser, rotations over 7 tools → 112 formal requests', () => {
    expect(getTemplate('politely-ignored').build()).toEqual(spec);
    expect(spec.scenarios[0].tools.map((t) => `${t.id}:${t.effect}`)).toEqual([
      'search_product:read',
      'search_book:read',
      'get_product_details:read',
      'get_price:read',
      'add_to_cart:write',
      'add_to_wishlist:write',
      'browser:write',
    ]);
    const trials = expandTrials(spec);
    expect(countMatrix(spec, trials)).toEqual({
      studies: [
        {
          study: 'selection',
          kind: 'selection',
          conditions: [
            { condition: 'published', baseline: true, trials: 56 },
            { condition: 'rewritten', baseline: false, trials: 56 },
          ],
          pairs: 56,
          trials: 112,
        },
      ],
      formal: 112,
      prechecks: 1,
    });
    expect(planExperiment(spec, DEFAULT_PRICE_TABLE).matrix).toEqual(countMatrix(spec, trials));
    // rotations: for one case and condition, every tool is sent first exactly once
    const first = trials.filter((t) => t.caseId === 'amazon-en-cart' && t.condition === 'published').map((t) => t.toolOrder[0]);
    expect(new Set(first).size).toBe(7);
  });

  it('the linter flags the false dotted name of every Amazon tool in the baseline, and nothing in the rewrite', () => {
    const findings = lintExperiment(spec);
    const falseNames = findings.filter((f) => f.rule === 'false-tool-name');
    expect(falseNames.map((f) => f.tool).sort()).toEqual([
      'amazon_add_to_cart',
      'amazon_add_to_wishlist',
      'amazon_get_price',
      'amazon_get_product_details',
      'amazon_search_book',
      'amazon_search_product',
    ]);
    expect(falseNames.every((f) => f.condition === 'published')).toBe(true);
    // the rewrite aimed at the false names; the search rule (docs/discovery.md) still finds three descriptions
    // without the user's verb: "Find the book …", "Show me the full details …", "Put … on my wishlist"
    expect(findings.filter((f) => f.condition === 'rewritten').map((f) => `${f.tool} ${f.rule}`)).toEqual([
      'amazon_search_book no-task-verb',
      'amazon_get_product_details no-task-verb',
      'amazon_add_to_wishlist no-task-verb',
    ]);
  });

  it('only the Amazon descriptions and parameter descriptions differ; the browser is the same in both conditions', () => {
    const [published, rewritten] = spec.studies[0].conditions;
    const a = published.tools.amazon.en;
    const b = rewritten.tools.amazon.en;
    expect(a.map((d) => d.name)).toEqual(b.map((d) => d.name));
    expect(a.find((d) => d.tool === 'browser')).toEqual(b.find((d) => d.tool === 'browser'));
    for (const d of a.filter((x) => x.tool !== 'browser')) expect(d.description).toMatch(/Exposed as amazon\.\w+\.$/);
    for (const c of spec.studies[0].cases)
      for (const check of c.checks) if (check.expected.tool) expect(spec.scenarios[0].tools.map((t) => t.id)).toContain(check.expected.tool);
  });
});
