import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../schema/experiment';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { lintCatalog, lintExperiment } from './lint';
import { catalogCosts } from './tokens';

const reference = ExperimentSpec.parse(getTemplate('reference-study')!.build());

const def = (name: string, description: string, parameters: Record<string, unknown> = { type: 'object', properties: {} }, tool = name): ToolDefinition => ({
  tool,
  name,
  description,
  parameters,
});
const rules = (defs: ToolDefinition[], effects: Record<string, 'read' | 'write'> = {}) =>
  lintCatalog(defs, new Map(Object.entries(effects))).map((f) => [f.tool, f.rule]);

describe('the description linter', () => {
  it('flags in the reference study exactly what its baselines withhold, and nothing in its treatments', () => {
    const findings = lintExperiment(reference);
    const treatments = findings.filter((f) => f.condition === 'clear' || f.condition === 'code-meanings');
    expect(treatments).toEqual([]);
    const rulesOf = (condition: string) => new Set(findings.filter((f) => f.condition === condition).map((f) => f.rule));
    expect(rulesOf('overlapping')).toEqual(new Set(['duplicate-description', 'too-short', 'parameter-undescribed', 'write-not-said']));
    expect(rulesOf('no-code-meanings')).toEqual(new Set(['codes-without-meanings']));
    // both locales of every baseline catalog
    expect(new Set(findings.filter((f) => f.rule === 'duplicate-description').map((f) => `${f.scenario}/${f.locale}`))).toEqual(
      new Set(['restaurant/en', 'restaurant/zh-TW', 'invoice/en', 'invoice/zh-TW']),
    );
  });

  it('catches the false dotted names of seed 001, and a restated name', () => {
    const search = def('amazon_search_product', 'Searches Amazon products. Exposed as amazon.search_product.');
    const cart = def('amazon_add_to_cart', 'Adds an Amazon product to the cart. Exposed as amazon.add_to_cart.');
    expect(rules([search, cart], { amazon_add_to_cart: 'write' })).toEqual([
      ['amazon_search_product', 'false-tool-name'],
      ['amazon_add_to_cart', 'false-tool-name'],
    ]);
    expect(rules([def('get_invoice', 'Call get_invoice to read one invoice by its number; read-only.')])).toEqual([['get_invoice', 'restates-name']]);
  });

  it('passes the rewrite of seed 001, and knows writes said in Chinese', () => {
    const cart = def(
      'amazon_add_to_cart',
      "Adds one Amazon product to the owner's real cart, on their own signed-in session. Mutating: every call is audited, and honors dry-run mode.",
      { type: 'object', properties: { asin: { type: 'string', description: 'The product ASIN, 10 letters or digits.' } } },
    );
    expect(rules([cart], { amazon_add_to_cart: 'write' })).toEqual([]);
    expect(rules([def('pay', '為一張發票送出付款；每次呼叫都會扣款，無法復原。', { type: 'object', properties: {} })], { pay: 'write' })).toEqual([]);
    expect(rules([def('pay', '查詢一張發票的狀態與金額，以發票號碼查找。', { type: 'object', properties: {} })], { pay: 'write' })).toEqual([['pay', 'write-not-said']]);
  });

  it('flags codes without meanings, near-duplicates and claims nobody can check', () => {
    expect(rules([def('status', 'Returns status_code, an integer from 40 to 69, for one invoice number.')])).toEqual([['status', 'codes-without-meanings']]);
    expect(rules([def('status', 'Returns status_code for one invoice: 41 = PAID, 48 = PENDING, any other code from 40 to 69 is an error.')])).toEqual([]);
    expect(
      rules([def('a', 'Looks up one order by its id and returns its lines and total.'), def('b', 'Looks up one order by its id and returns its lines and totals.')]).map(
        ([, r]) => r,
      ),
    ).toEqual(['overlapping-descriptions']);
    expect(rules([def('a', 'A powerful, seamless way to look up any order by its id.')])).toEqual([['a', 'uncheckable-claim']]);
  });
});

describe('catalog costs', () => {
  it('counts every catalog; the fuller treatment definitions cost more tokens than the baselines', () => {
    const costs = catalogCosts(reference);
    expect(costs).toHaveLength(16); // 2 studies × 2 conditions × 2 scenarios × 2 locales
    const at = (condition: string, scenario: string, locale: string) => costs.find((c) => c.condition === condition && c.scenario === scenario && c.locale === locale)!;
    for (const scenario of ['restaurant', 'invoice'])
      for (const locale of ['en', 'zh-TW']) {
        expect(at('clear', scenario, locale).tokens).toBeGreaterThan(at('overlapping', scenario, locale).tokens);
        expect(at('code-meanings', scenario, locale).tokens).toBeGreaterThan(at('no-code-meanings', scenario, locale).tokens);
      }
    expect(at('overlapping', 'invoice', 'en')).toMatchObject({ tools: 2 });
    expect(catalogCosts(reference)).toEqual(costs); // deterministic
  });
});
