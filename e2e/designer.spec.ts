import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Page } from '@playwright/test';
import { startRun } from './helpers';

// The designer, in the browser only: a new experiment built from empty — one scenario with a read and a
// write tool, two conditions, three cases in two locales with their case cards; the only JSON typed is one
// parameters schema, in the code editor. The preview's counts are asserted as they change; v1 is saved and
// run on the simulated provider; then one description of the treatment is edited into v2.

const saved = (page: Page) => expect(page.getByTestId('save-state')).toHaveText('draft saved');
const def = (page: Page, tool: string, condition: string, locale: string) => page.getByRole('group', { name: `Definition ${tool} (${condition}, invoice/${locale})` });

test('build an experiment from empty, preview its counts, save v1, run it, edit into v2 and diff the versions', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Id').fill('designed-e2e');
  await form.getByLabel('Name').fill('Designed in the browser');
  await form.getByRole('button', { name: 'Create draft' }).click();
  await page.waitForURL(/\/designer\/designed-e2e$/);
  await expect(page.getByTestId('preview-empty')).toBeVisible();

  await page.getByLabel('Locales').fill('en, zh-TW');
  await page.getByLabel('Locales').press('Tab');
  await page.getByRole('button', { name: 'Add scenario' }).click();
  await page.getByLabel('Scenario id').fill('invoice');
  await page.getByLabel('Scenario title').fill('Invoices');
  await page.getByRole('button', { name: 'Add tool' }).click();
  await page.getByLabel('Tool 1 id').fill('get_invoice');
  await page.getByRole('button', { name: 'Add tool' }).click();
  await page.getByLabel('Tool 2 id').fill('pay_invoice');
  await page.getByLabel('Tool 2 effect').selectOption('write');

  await page.getByRole('button', { name: 'Add study' }).click();
  await saved(page);
  // an error is shown at its field, with its path
  await expect(page.locator('[data-testid="field-error"][data-path="studies.0.protocol.system.zh-TW"]')).toContainText('studies.0.protocol.system.zh-TW');
  await page.getByLabel('System text (en)').fill('Use a tool, or answer CLARIFY: / STOP:.');
  await page.getByLabel('System text (zh-TW)').fill('請使用工具，或回覆 CLARIFY: / STOP:。');

  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Condition id').nth(0).fill('vague');
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Condition id').nth(1).fill('clear');
  await page.getByLabel('Condition label').nth(1).fill('Clear purposes');

  for (const locale of ['en', 'zh-TW']) {
    const catalog = page.getByTestId(`catalog-vague-invoice-${locale}`);
    await catalog.getByRole('button', { name: 'Define get_invoice' }).click();
    await catalog.getByRole('button', { name: 'Define pay_invoice' }).click();
    await def(page, 'get_invoice', 'vague', locale).getByLabel('Description of get_invoice').fill('Handles invoice requests.');
    await def(page, 'pay_invoice', 'vague', locale).getByLabel('Description of pay_invoice').fill('Handles invoice requests.');
  }
  // the one JSON typed: a parameters schema, in the code editor
  const editor = page.getByTestId('params-vague-invoice-en-get_invoice').locator('.cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(
    '{"type": "object", "properties": {"invoice_id": {"type": "string", "description": "The invoice number, e.g. INV-7."}}, "required": ["invoice_id"]}',
  );
  for (const locale of ['en', 'zh-TW'])
    await page
      .getByTestId(`catalog-clear-invoice-${locale}`)
      .getByRole('button', { name: `Copy from baseline (invoice/${locale})` })
      .click();
  await def(page, 'get_invoice', 'clear', 'en').getByLabel('Description of get_invoice').fill('Read-only: looks up one invoice by its number and changes nothing.');
  await def(page, 'pay_invoice', 'clear', 'en')
    .getByLabel('Description of pay_invoice')
    .fill('Writes: submits a payment for one invoice; call it only after the user confirmed.');
  await expect(def(page, 'get_invoice', 'clear', 'en').getByTestId('word-diff')).toContainText('Read-only');

  // three cases in two locales, each with its case card
  const cases = [
    { id: 'case-1', locale: 'en', task: 'Show me invoice INV-7.', decision: 'read', tool: 'get_invoice' },
    { id: 'case-2', locale: 'en', task: 'Pay invoice INV-7 now, I confirm.', decision: 'write', tool: 'pay_invoice' },
    { id: 'case-3', locale: 'zh-TW', task: '請幫我查詢發票 INV-7。', decision: 'read', tool: 'get_invoice' },
  ];
  for (const [i, c] of cases.entries()) {
    await page.getByRole('button', { name: 'Add case' }).click();
    const card = page.getByTestId(`case-${c.id}`);
    await card.getByLabel('Case locale').selectOption(c.locale);
    await card.getByLabel('Task text').fill(c.task);
    await card.getByLabel('Expected (tool-choice): decision').selectOption(c.decision);
    await card.getByLabel('Expected (tool-choice): tool').selectOption(c.tool);
    await card.getByLabel('Expected (tool-choice): call count').fill('1');
    await saved(page);
    // reverse-swap: 2 orders per case, 2 conditions
    if (i === 1) await expect(page.getByTestId('preview-formal')).toHaveText('8');
  }
  await saved(page);
  await expect(page.getByTestId('preview-formal')).toHaveText('12');
  await expect(page.getByTestId('preview-trials-selection')).toHaveText('12');
  await expect(page.getByTestId('preview-pairs-selection')).toHaveText('6');
  await expect(page.getByTestId('preview-cond-selection-vague')).toHaveText('6');
  await expect(page.getByTestId('preview-cond-selection-clear')).toHaveText('6');
  await expect(page.getByTestId('preview-prechecks')).toHaveText('0');
  await page.getByLabel('Replicates').fill('3');
  await saved(page);
  await expect(page.getByTestId('preview-formal')).toHaveText('36');
  await page.getByLabel('Replicates').fill('1');
  await page.getByRole('button', { name: 'Add pre-check' }).click();
  await saved(page);
  await expect(page.getByTestId('preview-formal')).toHaveText('12');
  await expect(page.getByTestId('preview-prechecks')).toHaveText('1');
  await expect(page.getByTestId('draft-issues')).toContainText('valid');
  // a fact the server enforces, recorded on the tool: the linter (on a valid draft) asks its descriptions to say it
  const payClear = def(page, 'pay_invoice', 'clear', 'en');
  await page.getByTestId('tool-facts-0-1').getByLabel('audited').check();
  await saved(page);
  await expect(payClear.getByTestId('lint-findings')).toContainText('fact-not-said');
  await payClear
    .getByLabel('Description of pay_invoice')
    .fill('Writes: submits a payment for one invoice; every call is audited; call it only after the user confirmed.');
  await saved(page);
  await expect(payClear.locator('code', { hasText: 'fact-not-said' })).toHaveCount(0);

  // a reload loses nothing
  await page.reload();
  await expect(def(page, 'get_invoice', 'clear', 'en').getByLabel('Description of get_invoice')).toHaveValue(
    'Read-only: looks up one invoice by its number and changes nothing.',
  );
  await expect(page.getByTestId('case-case-3').getByLabel('Task text')).toHaveValue('請幫我查詢發票 INV-7。');
  await expect(page.getByTestId('preview-formal')).toHaveText('12');

  const preview = {
    formal: await page.getByTestId('preview-formal').textContent(),
    prechecks: await page.getByTestId('preview-prechecks').textContent(),
    trials: await page.getByTestId('preview-trials-selection').textContent(),
    pairs: await page.getByTestId('preview-pairs-selection').textContent(),
    tokens: await page.getByTestId('preview-tokens').locator('tr').allTextContents(),
  };
  await page.getByRole('button', { name: 'Save as version 1' }).click();
  await page.waitForURL(/\/experiments\/designed-e2e-v1\?imported=new/);
  // a designer save is a save, not an import
  await expect(page.getByRole('status')).toHaveText('Saved as designed-e2e-v1 (version 1).');

  // `tclab plan` on the stored spec prints the same counts and token figures as the preview
  const dir = await mkdtemp(path.join(tmpdir(), 'tclab-designer-'));
  const file = path.join(dir, 'v1.json');
  await writeFile(file, await (await page.request.get('/api/experiments/designed-e2e-v1')).text());
  const { stdout } = await promisify(execFile)(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'cli/tclab.ts', 'plan', file, '--json']);
  await rm(dir, { recursive: true, force: true });
  const plan = JSON.parse(stdout) as {
    matrix: { formal: number; prechecks: number; studies: { trials: number; pairs: number }[] };
    catalogs: { study: string; condition: string; scenario: string; locale: string; tools: number; tokens: number }[];
  };
  expect([plan.matrix.formal, plan.matrix.prechecks, plan.matrix.studies[0].trials, plan.matrix.studies[0].pairs].map(String)).toEqual([
    preview.formal,
    preview.prechecks,
    preview.trials,
    preview.pairs,
  ]);
  expect(preview.tokens).toEqual(plan.catalogs.map((c) => `${c.study}/${c.condition}/${c.scenario}/${c.locale}${c.tools} tools${c.tokens.toLocaleString('en')}`));
  await expect(page.getByTestId('formal-total')).toHaveText('12');
  await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(page.getByTestId('progress-done-of-total')).toHaveText('12 / 12');
  await expect(page.getByTestId('table1').locator('thead')).toContainText('selection');
  await expect(page.getByTestId('t1-row-invoice-en')).toBeVisible();
  await expect(page.getByTestId('t1-row-invoice-zh-TW')).toBeVisible();
  const runUrl = page.url();

  // edit one description of the treatment → v2; v1 and its run stay as they were
  await page.goto('/experiments/designed-e2e-v1');
  await page.getByRole('button', { name: 'Edit in designer' }).click();
  await page.waitForURL(/\/designer\/designed-e2e$/);
  await def(page, 'pay_invoice', 'clear', 'en')
    .getByLabel('Description of pay_invoice')
    .fill('Writes: submits one payment for one invoice, only after the user confirmed it.');
  await saved(page);
  await page.getByRole('button', { name: 'Save as version 2' }).click();
  await page.waitForURL(/\/experiments\/designed-e2e-v2\?imported=new/);
  await page.getByRole('link', { name: 'Version history' }).click();
  await page.getByLabel('From version').selectOption('1');
  await page.getByLabel('To version').selectOption('2');
  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByTestId('version-change')).toHaveCount(1);
  await expect(page.getByTestId('change-path')).toHaveText('studies[selection].conditions[clear].tools.invoice.en[1].description');
  await expect(page.getByTestId('versions')).toContainText('v1');
  // v1 as stored: the description it was frozen with
  const spec = (await (await page.request.get('/api/experiments/designed-e2e-v1')).json()) as {
    scenarios: { tools: { id: string; facts?: string[] }[] }[];
    studies: { conditions: { id: string; tools: Record<string, Record<string, { description: string }[]>> }[] }[];
  };
  expect(spec.studies[0].conditions.find((c) => c.id === 'clear')!.tools.invoice.en[1].description).toBe(
    'Writes: submits a payment for one invoice; every call is audited; call it only after the user confirmed.',
  );
  expect(spec.scenarios[0].tools).toEqual([
    { id: 'get_invoice', effect: 'read' },
    { id: 'pay_invoice', effect: 'write', facts: ['audited'] },
  ]);
  await page.goto(runUrl);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  await expect(page.locator('a[href="/experiments/designed-e2e-v1"]').first()).toBeVisible();
});

test('an invalid draft shows each error at its field and is not saved as a version', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Id').fill('invalid-e2e');
  await form.getByRole('button', { name: 'Create draft' }).click();
  await page.waitForURL(/\/designer\/invalid-e2e$/);
  await page.getByRole('button', { name: 'Add scenario' }).click();
  await page.getByRole('button', { name: 'Add study' }).click();
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByRole('button', { name: 'Add condition' }).click();
  await page.getByLabel('Condition id').nth(1).fill('condition-1'); // a duplicate id
  await page
    .getByRole('radio', { name: 'Baseline' })
    .nth(0)
    .uncheck()
    .catch(() => undefined);
  await page.getByLabel('Replicates').fill('0');
  await saved(page);
  await expect(page.locator('[data-testid="field-error"][data-path="scenarios.0.tools"]')).toBeVisible();
  await expect(page.locator('[data-testid="field-error"][data-path="studies.0.cases"]')).toBeVisible();
  await expect(page.locator('[data-testid="field-error"][data-path="studies.0.protocol.system.en"]')).toBeVisible();
  await expect(page.locator('[data-testid="field-error"][data-path="replicates"]')).toBeVisible();
  await page.getByRole('button', { name: 'Save as version 1' }).click();
  await expect(page.getByTestId('freeze-errors')).toContainText('invalid');
  await page.goto('/');
  await expect(page.getByTestId('experiments')).not.toContainText('invalid-e2e');
  await expect(page.getByTestId('drafts')).toContainText('invalid-e2e');
});

test('a large draft opens collapsed, and its contents jump to a tool description; 1440 and 390 px', async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Id').fill('navigate-e2e');
  await form.getByLabel('Start from').selectOption('template');
  await form.getByLabel('Template').selectOption('reference-study');
  await form.getByRole('button', { name: 'Create draft' }).click();
  await page.waitForURL(/\/designer\/navigate-e2e$/);
  await expect(page.getByTestId('save-state')).toHaveText('draft saved');
  // 24 definitions and 52 cases: every study, condition, catalog and case collapsed, their fields not rendered
  await expect(page.getByRole('group', { name: /^Definition / })).toHaveCount(0);
  await expect(page.getByLabel('Task text')).toHaveCount(0);
  const contents = page.getByRole('navigation', { name: 'Designer contents' });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const target = width === 390 ? 'Description of get_payment_status (clear, invoice/en)' : 'Description of submit_payment (clear, invoice/zh-TW)';
    await contents.getByRole('link', { name: target }).click();
    const [, tool, condition, where] = /^Description of (\S+) \((\S+), (\S+)\)$/.exec(target)!;
    const field = page.getByRole('group', { name: `Definition ${tool} (${condition}, ${where})` }).getByLabel(`Description of ${tool}`);
    await expect(field).toBeFocused();
    await expect(field).toBeInViewport();
    // a field that repeats down the page says where it sits: its name is the contents' link's
    await expect(page.getByRole('textbox', { name: target, exact: true })).toBeFocused();
    // only the way to it opened: another condition's definitions stay unrendered
    await expect(page.getByRole('group', { name: new RegExp(`^Definition ${tool} \\(overlapping`) })).toHaveCount(0);
    // the page fits the screen's width
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  // a collapsed section opens by its summary too
  await page.getByTestId('case-restaurant-en-read-1').locator('summary').click();
  await expect(page.getByTestId('case-restaurant-en-read-1').getByLabel('Task text (restaurant-en-read-1)', { exact: true })).toBeVisible();
  // a kind's own case fields show by the kind's case fields: the fixed call is an interpretation case's, not a selection case's
  await expect(page.getByTestId('case-restaurant-en-read-1').getByLabel(/^Fixed call: tool/)).toHaveCount(0);
  await page.locator('summary', { hasText: /^interpretation \(interpretation\)$/ }).click();
  await page.getByTestId('case-invoice-en-code-41').locator('summary').click();
  await expect(page.getByTestId('case-invoice-en-code-41').getByLabel(/^Fixed call: tool/)).toBeVisible();
});
