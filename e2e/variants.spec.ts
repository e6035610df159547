import { expect, test, type Page } from '@playwright/test';

// Variants in the browser (docs/designer.md): from a template's treatment, "Generate variants" shows a length-matched
// placebo and single-defect mutants as a diff against the baseline before anything is added; a placebo and
// one mutant are kept, the draft is saved as a version, and the version names each one's kind. At 1440 px
// and at 390 px (the proposals fit the screen).

const saved = (page: Page) => expect(page.getByTestId('save-state')).toHaveText('draft saved');
const ID = 'variants-e2e';

test('generate a placebo and a mutant, see their diff against the baseline, save them, and find their kinds in the version', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Id').fill(ID);
  await form.getByLabel('Start from').selectOption('template');
  await form.getByLabel('Template').selectOption('task-completion');
  await form.getByRole('button', { name: 'Create draft' }).click();
  await page.waitForURL(new RegExp(`/designer/${ID}$`));

  const panel = page.locator('[aria-label="Variants of task"]');
  await panel.getByLabel('Treatment to vary').selectOption('contract');
  await panel.getByRole('button', { name: 'Generate variants' }).click();
  const proposals = panel.getByTestId('variant-proposals');
  await expect(proposals).toBeVisible();
  // three candidate tools in the invoice scenario: the orders become a Latin square
  await expect(proposals.getByTestId('variant-orders')).toContainText('fixed → rotations');

  // the placebo: the baseline's description with neutral sentences added, as a word diff against the baseline
  const placebo = proposals.getByTestId('variant-placebo');
  await expect(placebo).toContainText('contract-placebo');
  await expect(placebo.getByTestId('variant-diff')).toContainText('tools.invoice.en[0].description');
  await expect(placebo.getByTestId('variant-diff').locator('ins').first()).toContainText('The text above describes this tool.');
  await expect(placebo.getByTestId('placebo-tokens')).toContainText('→');
  // a mutant: the treatment with a vague purpose, against the baseline
  const vague = proposals.getByTestId('variant-mutant:vague-purpose');
  await expect(vague.getByTestId('variant-diff')).toContainText('-related requests.');

  // at 390 px the proposals fit the screen
  await page.setViewportSize({ width: 390, height: 844 });
  await placebo.scrollIntoViewIfNeeded();
  expect(await proposals.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  const box = (await placebo.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 900 });

  // keep the placebo and the vague-purpose mutant only
  for (const kind of ['mutant:restates-name', 'mutant:write-not-said', 'mutant:model-directed-instruction'])
    await proposals.getByTestId(`variant-${kind}`).getByRole('checkbox').uncheck();
  await proposals.getByRole('button', { name: 'Add these 2 conditions' }).click();
  await expect(page.getByTestId('variant-kind-contract-placebo')).toHaveText('placebo of contract');
  await expect(page.getByTestId('variant-kind-contract-mutant-vague-purpose')).toHaveText('mutant:vague-purpose of contract');
  await saved(page);
  await expect(page.getByTestId('draft-issues')).toContainText('valid');

  await page.getByRole('button', { name: 'Save as version 1' }).click();
  await page.waitForURL(new RegExp(`/experiments/${ID}-v1\\?imported=new`));
  await expect(page.getByTestId('variant-contract-placebo')).toHaveText('placebo of contract');
  await expect(page.getByTestId('variant-contract-mutant-vague-purpose')).toHaveText('mutant:vague-purpose of contract');
  const json = (await (await page.request.get(`/api/experiments/${ID}-v1`)).json()) as {
    studies: { orderPolicy: string; conditions: { id: string; variant?: { kind: string; of: string } }[] }[];
  };
  expect(json.studies[0].orderPolicy).toBe('rotations');
  expect(json.studies[0].conditions.map((c) => [c.id, c.variant?.kind ?? null])).toEqual([
    ['baseline', null],
    ['contract', null],
    ['contract-placebo', 'placebo'],
    ['contract-mutant-vague-purpose', 'mutant:vague-purpose'],
  ]);
});
