import { expect, test, type Page } from '@playwright/test';
import { importViaForm, tinyExperiment } from './helpers';

// In the browser (docs/designer.md): an expected argument's value takes its type from the tool's parameter schema.
// `0593135202` typed for a `string` parameter is stored as that string (it was the number 593135202); an
// enum is a select, a boolean a checkbox; the form is usable at 390 px.

const saved = (page: Page) => expect(page.getByTestId('save-state')).toHaveText('draft saved');
const ID = 'asin-values-e2e';

test('an ASIN typed into a string parameter is saved as the string, at 1440 px; the form works at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const spec = tinyExperiment(ID, 'Look up the book with ASIN 0593135202.', {
    scenario: 'books',
    tools: { read: 'lookup', write: 'buy' },
    names: { read: 'get_book', write: 'buy_book' },
    parameters: {
      type: 'object',
      properties: {
        asin: { type: 'string', description: "The book's ASIN." },
        format: { type: 'string', enum: ['paperback', 'ebook'] },
        gift: { type: 'boolean' },
      },
      required: ['asin'],
    },
  });
  await importViaForm(page, spec);
  await page.waitForURL(new RegExp(`/experiments/${ID}-v1`));
  await page.getByRole('button', { name: 'Edit in designer' }).click();
  await page.waitForURL(new RegExp(`/designer/${ID}$`));

  const card = page.getByTestId('case-read-1');
  await card.getByRole('button', { name: 'Add check' }).click();
  await card.getByLabel('Expected (check-2): tool').selectOption('lookup');
  const args = card.getByLabel('Expected (check-2): arguments', { exact: true });
  // each "Add argument" names the next parameter of the expected tool, with a value field of its type
  for (let i = 0; i < 3; i++) await args.getByRole('button', { name: 'Add argument' }).click();
  await expect(args.getByLabel('Expected (check-2): arguments: name 1')).toHaveValue('asin');
  await args.getByLabel('Expected (check-2): arguments: value 1').fill('0593135202');
  // (the stored schema lists its properties in PostgreSQL's key order: asin, gift, format)
  const format = args.getByTestId('argument-format').locator('select');
  await expect(format).toHaveValue('0'); // an enum starts at its first value
  await format.selectOption({ label: 'ebook' });
  await args.getByTestId('argument-gift').getByRole('checkbox').check();
  await saved(page);
  await expect(page.getByTestId('draft-issues')).toContainText('valid');

  // at 390 px: the argument's fields fit the screen and take input
  await page.setViewportSize({ width: 390, height: 844 });
  const asin = args.getByLabel('Expected (check-2): arguments: value 1');
  await asin.scrollIntoViewIfNeeded();
  const box = (await asin.boundingBox())!;
  expect(box.width).toBeGreaterThan(100);
  const panel = args.getByTestId('argument-asin');
  expect(await panel.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await asin.fill('0593135203');
  await expect(asin).toHaveValue('0593135203');
  await asin.fill('0593135202');
  await saved(page);
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole('button', { name: 'Save as version 2' }).click();
  await page.waitForURL(new RegExp(`/experiments/${ID}-v2\\?imported=new`));
  // the version's JSON view: the stored value is the string
  await page.getByTestId('edit-experiment').locator('summary').click();
  const stored = await page.getByLabel('Spec JSON').inputValue();
  expect(stored).toContain('"asin": "0593135202"');
  const json = (await (await page.request.get(`/api/experiments/${ID}-v2`)).json()) as {
    studies: { cases: { checks: { id: string; expected: { arguments?: Record<string, unknown> } }[] }[] }[];
  };
  expect(json.studies[0].cases[0].checks.find((c) => c.id === 'check-2')!.expected.arguments).toEqual({ asin: '0593135202', format: 'ebook', gift: true });
});
