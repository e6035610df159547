import { expect, test } from '@playwright/test';

test('edit an experiment as a new version: the linter follows the change, unchanged content is the stored version', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\/reference-study-v1$/);
  // the baseline sends two invoice tools described alike
  await expect(page.getByTestId('catalog-selection-overlapping-invoice-en')).toContainText('1 error');

  await page.getByTestId('edit-experiment').locator('summary').click();
  const editor = page.getByLabel('Spec JSON');
  const text = await editor.inputValue();
  const vague = '"description": "Handles invoice-related requests."';
  expect(text.split(vague).length - 1).toBeGreaterThanOrEqual(2);
  // the edited text goes in at once (typing ~100 kB of JSON through fill() takes most of the test's time)
  const edited = text.replace(vague, '"description": "Looks up one invoice by its number and returns its status; read-only."');
  await editor.evaluate((el, value) => {
    (el as HTMLTextAreaElement).value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, edited);
  await expect(editor).toHaveValue(edited);
  await page.getByRole('button', { name: 'Save as new version' }).click();
  // the next version: other specs sharing this database may have stored versions of the template already
  await page.waitForURL(/\/experiments\/reference-study-v\d+\?imported=new/);
  const version = Number(/reference-study-v(\d+)\?/.exec(page.url())![1]);
  expect(version).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole('status')).toContainText(`Imported as reference-study-v${version} (version ${version}).`);
  await expect(page.getByTestId('catalog-selection-overlapping-invoice-en')).toContainText('0 errors');

  // saving the same content again stores nothing new
  await page.getByTestId('edit-experiment').locator('summary').click();
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await page.waitForURL(new RegExp(`/experiments/reference-study-v${version}\\?imported=existing`));
  await expect(page.getByRole('status')).toContainText(`already stored as reference-study-v${version}`);
});
