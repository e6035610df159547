import { expect, test, type Page } from '@playwright/test';
import { closeDb, pool } from '../lib/db/client';
import { tinyExperiment } from './helpers';

// Hostile input in the browser (docs/edge-inputs.md): the import form refuses a spec with a NUL, a lone surrogate, a 10 MB field or
// nesting 10,000 deep with a one-line error naming the field and the limit, and stores nothing.
// A thousand stored experiments and one broken row, and the home page still answers 200.

async function importFile(page: Page, name: string, text: string): Promise<void> {
  await page.goto('/');
  await page.locator('#import-file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text, 'utf8') });
  await page.getByRole('button', { name: 'Import' }).click();
}

async function importPaste(page: Page, text: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Spec JSON').fill(text);
  await page.getByRole('button', { name: 'Import' }).click();
}

async function expectOneLine(page: Page, path: string, limit: string): Promise<void> {
  const errors = page.getByTestId('import-errors');
  await expect(errors).toContainText('nothing was stored');
  const items = errors.locator('li');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(path);
  await expect(items.first()).toContainText(limit);
}

test('a NUL, a lone surrogate, a 10 MB field and 10,000-deep nesting: one line naming the field and the limit; nothing stored', async ({ page }) => {
  test.setTimeout(180_000);
  const id = `e2e-hostile-${Date.now()}`;
  const withTask = (task: string) => JSON.stringify(tinyExperiment(id, task));

  await importPaste(page, withTask('Show invoice \u0000 INV-7.'));
  await expectOneLine(page, 'studies.0.cases.0.task', 'NUL character (U+0000)');

  await importPaste(page, withTask('Show invoice \ud800 INV-7.'));
  await expectOneLine(page, 'studies.0.cases.0.task', 'lone surrogate');

  await importFile(page, 'big.json', withTask('x'.repeat(10 * 1024 * 1024)));
  await expectOneLine(page, 'studies.0.cases.0.task', 'over the limit of 5 MB');

  const deep = tinyExperiment(id) as unknown as {
    studies: { conditions: { tools: { invoice: { en: { parameters: { properties: Record<string, unknown> } }[] } } }[] }[];
  };
  deep.studies[0].conditions[0].tools.invoice.en[0].parameters.properties.invoice_id = '@@DEEP@@';
  await importFile(page, 'deep.json', JSON.stringify(deep).replace('"@@DEEP@@"', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`));
  await expectOneLine(page, 'studies.0.conditions.0.tools.invoice.en.0', 'deeper than the limit of 64 levels');

  await page.goto('/');
  await expect(page.locator('body')).not.toContainText(id);
});

test('the home page answers 200 with a thousand experiments stored and one that cannot be read shown as broken', async ({ page, request }) => {
  test.setTimeout(180_000);
  const client = pool(); // the e2e database (scripts/e2e.sh sets DATABASE_URL), through lib/db
  const prefix = `e2e-many-${Date.now()}`;
  try {
    const spec = tinyExperiment(prefix);
    await client.query(
      `INSERT INTO experiments (id, slug, version, name, spec, spec_hash)
       SELECT $1 || '-' || i || '-v1', $1 || '-' || i, 1, 'Many ' || i, $2::jsonb, 'sha256:e2e-' || i FROM generate_series(1, 1000) AS i`,
      [prefix, JSON.stringify(spec)],
    );
    // a row no version of the app could have stored: the listing must survive it
    await client.query(`INSERT INTO experiments (id, slug, version, name, spec, spec_hash) VALUES ($1, $2, 1, 'Broken row', '{"format": "nope"}', 'sha256:e2e-broken')`, [
      `${prefix}-broken-v1`,
      `${prefix}-broken`,
    ]);
    const t0 = Date.now();
    const res = await request.get('/');
    expect(res.status()).toBe(200);
    const ms = Date.now() - t0;
    expect(ms).toBeLessThan(30_000);
    await page.goto('/');
    expect(await page.getByTestId('experiments').locator('tbody tr').count()).toBeGreaterThanOrEqual(1001);
    await expect(page.getByTestId('broken-experiment')).toHaveCount(1);
    await expect(page.getByTestId('broken-experiment')).toContainText('format');
    // its own page says it is broken instead of failing
    const own = await request.get(`/experiments/${prefix}-broken-v1`);
    expect(own.status()).toBe(200);
    expect(await own.text()).toContain('stored spec cannot be read');
  } finally {
    await client.query(`DELETE FROM experiments WHERE slug LIKE $1`, [`${prefix}%`]);
    await closeDb();
  }
});
