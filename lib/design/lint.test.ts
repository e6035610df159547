import { describe, expect, it } from 'vitest';
import type { ToolDefinition, ToolFact } from '../schema/experiment';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { lintCatalog, lintExperiment, type CatalogContext } from './lint';
import { nameKey, nearDistractor, taskVerbs } from './lint-search';
import { seededCatalog } from './catalog';
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
    // "Handles invoice-related requests." uses no verb of the invoice tasks (check, look, pay, submit, …)
    expect(rulesOf('overlapping')).toEqual(new Set(['duplicate-description', 'too-short', 'parameter-undescribed', 'write-not-said', 'no-task-verb', 'vague-purpose']));
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
    // another tool sent beside it, named: a cross-reference, not a restated name
    const read = def('get_invoice', 'Reads one invoice by its number and changes nothing; to pay it, use pay_invoice.');
    const pay = def('pay_invoice', 'Pays one invoice by its number, charging the card on file; it cannot be undone.');
    expect(rules([read, pay], { pay_invoice: 'write' })).toEqual([]);
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

  it('asks the description to say the facts its scenario records, in English or Chinese, and nothing when none is recorded', () => {
    const facts = (f: Record<string, ToolFact[]>): CatalogContext => ({ facts: new Map(Object.entries(f)) });
    const params = { type: 'object', properties: { asin: { type: 'string', description: 'The product ASIN, 10 letters or digits.' } } };
    const cart = (text: string) => [def('amazon_add_to_cart', text, params)];
    const found = (text: string, recorded: ToolFact[]) =>
      lintCatalog(cart(text), new Map([['amazon_add_to_cart', 'write']]), {}, facts({ amazon_add_to_cart: recorded })).filter((f) => f.rule === 'fact-not-said');
    const published = 'Adds an Amazon product to the cart, changing what the owner will buy.';
    expect(found(published, [])).toEqual([]);
    const [finding] = found(published, ['owner-session', 'audited', 'dry-run']);
    expect(finding.message).toMatch(/owner-session .*; audited .*; dry-run /);
    // seed 001's rewrite says all three
    expect(
      found("Adds one Amazon product to the owner's real cart, on their own signed-in session. Mutating: every call is audited, and honors dry-run mode.", [
        'owner-session',
        'audited',
        'dry-run',
      ]),
    ).toEqual([]);
    // one said, two not: the two are named
    expect(found(`${published} Every call is audited.`, ['owner-session', 'audited', 'dry-run'])[0].message).not.toMatch(/audited \(/);
    expect(found('把一件商品加入擁有者的購物車；在其已登入的工作階段上執行，每次呼叫都會稽核。', ['owner-session', 'audited'])).toEqual([]);
    expect(found(`${published} Cached.`, ['cached', 'idempotent'])[0].message).toMatch(/^does not say what its scenario records: idempotent /);
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

describe('rules for search (docs/discovery.md)', () => {
  const verbs = (...tasks: string[]) => new Map([['pay', taskVerbs(tasks)]]);
  const payDef = (description: string) => def('pay_invoice', description, { type: 'object', properties: {} }, 'pay');
  const withContext = (d: ToolDefinition, context: CatalogContext) => lintCatalog([d], new Map(), {}, context).map((f) => f.rule);

  it('no-task-verb: flags a description that uses no verb of the tasks that need the tool, in any inflection', () => {
    const tasks = verbs('Please pay invoice INV-1 by bank transfer.', 'I confirm: submit a card payment for INV-2.');
    expect(tasks.get('pay')!.map((v) => v.root)).toEqual(['pay', 'confirm', 'submit']);
    expect(withContext(payDef('Reads the invoices of the accounting team, newest first.'), { taskVerbs: tasks })).toEqual(['no-task-verb']);
    // an inflection (stem) or a derived word starting with the root counts as the user's word
    expect(withContext(payDef('Submits one card or bank transfer for an invoice; charges it at once.'), { taskVerbs: tasks })).toEqual([]);
    expect(withContext(payDef('Records a payment against one invoice and charges the card given.'), { taskVerbs: tasks })).toEqual([]);
    // no tasks need the tool (or none is English): nothing to compare
    expect(withContext(payDef('Reads the invoices of the accounting team, newest first.'), { taskVerbs: new Map() })).toEqual([]);
    expect(withContext(payDef('Reads the invoices of the accounting team, newest first.'), {})).toEqual([]);
    // auxiliaries and modals carry no task; a URL is read as a thing, not as words
    expect(taskVerbs(['Can you open https://example.com/a-b and tell me what it says? Has it been updated?']).map((v) => v.root)).toEqual([
      'open',
      'tell',
      'say',
      'update',
    ]);
  });

  it('no-task-verb in an experiment: the verbs of the cases whose card expects the tool, English locales only', () => {
    const findings = lintExperiment(reference).filter((f) => f.rule === 'no-task-verb');
    expect(findings.map((f) => `${f.condition} ${f.scenario}/${f.locale} ${f.tool}`).sort()).toEqual([
      'overlapping invoice/en invoice_gateway',
      'overlapping invoice/en invoice_service',
      'overlapping restaurant/en restaurant_service', // the availability tasks say check and look; it handles "booking requests"
    ]);
    expect(findings[0].message).toMatch(/check.*look/);
  });

  it('name-near-distractor: the same words as a distractor after splitting and case-folding, never the exact name', () => {
    const keys = new Map([
      [nameKey('list_issues'), 'list_issues'],
      [nameKey('get.pull-request'), 'get.pull-request'],
    ]);
    expect(nameKey('listIssues')).toBe('issues list');
    expect(nearDistractor('ListIssues', keys)).toBe('list_issues');
    expect(nearDistractor('issues.list', keys)).toBe('list_issues');
    expect(nearDistractor('getPullRequest', keys)).toBe('get.pull-request');
    expect(nearDistractor('list_issues', keys)).toBeNull(); // exact: refused when the spec is read
    expect(nearDistractor('list_open_issues', keys)).toBeNull();
    const d = def('listIssues', 'Lists the open issues of one repository, newest first, with their titles.');
    expect(lintCatalog([d], new Map(), {}, { distractors: keys }).map((f) => [f.rule, f.other])).toEqual([['name-near-distractor', 'list_issues']]);
  });

  it('name-near-distractor in an experiment: against the distractors the study may send with the scenario', () => {
    const spec = ExperimentSpec.parse(getTemplate('catalog-scale')!.build());
    const study = spec.studies[0];
    const drawn = seededCatalog(study, 'invoice')[0].name;
    const near = drawn.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()); // list_issues → listIssues
    expect(near).not.toBe(drawn);
    const edited = structuredClone(getTemplate('catalog-scale')!.build()) as unknown as ExperimentSpec;
    const clear = edited.studies[0].conditions.find((c) => c.id === 'clear')!;
    clear.tools.invoice.en[0].name = near;
    const findings = lintExperiment(ExperimentSpec.parse(edited)).filter((f) => f.rule === 'name-near-distractor');
    expect(findings.map((f) => [f.condition, f.tool, f.other])).toEqual([['clear', near, drawn]]);
    expect(lintExperiment(spec).filter((f) => f.rule === 'name-near-distractor')).toEqual([]);
  });
});

describe('vague-purpose', () => {
  it('flags a first sentence that names only a generic verb and object, in English and Chinese', () => {
    expect(rules([def('invoice_service', 'Handles invoice-related requests. Looks up one invoice by its number and returns its status.')])).toEqual([
      ['invoice_service', 'vague-purpose'],
    ]);
    expect(rules([def('s', 'This tool manages booking operations for the restaurant and its branches.')])).toEqual([['s', 'vague-purpose']]);
    expect(rules([def('s', '處理發票相關請求。查出一張發票目前的付款狀態與金額。')])).toEqual([['s', 'vague-purpose']]);
    // a precise first sentence, or a generic verb with a precise object, is not vague
    expect(rules([def('s', 'Looks up one invoice by its number. Handles invoice-related requests too.')])).toEqual([]);
    expect(rules([def('s', 'Processes one refund for a paid order and returns the refund id.')])).toEqual([]);
  });
});
