import { expect, test, type Page } from '@playwright/test';
import { expectFits, startRun } from './helpers';

// Reviewing with the keyboard: on a pair page, k and j step back and forward through the review list, and s
// saves the pair's readings and opens the next pair — three pairs walked with the keyboard, the progress
// count going up by one each time. At 1440 px (the queue at 390 px: review-queue.spec.ts).

/** Waits until the page's key handler is attached: a key pressed before the page is hydrated does nothing. */
const keysReady = (page: Page) => expect(page.getByTestId('review-keys')).toHaveAttribute('data-listening', 'yes');

const reviewedOf = async (page: Page) => Number(/^(\d+) of/.exec((await page.getByTestId('review-progress').textContent()) ?? '')![1]);

test('review with the keyboard: j / k move through the list, s saves and opens the next pair, three times', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  await page.getByTestId('review-link').click();
  await page.waitForURL(/\/review$/);
  await page.getByTestId('review-pairs').locator('tbody tr').first().locator('a', { hasText: 'side by side' }).click();
  await page.waitForURL(/\/pairs\//);
  const first = page.url();
  await expect(page.getByTestId('save-and-next')).toBeVisible();
  await keysReady(page);

  // j and k: forward one pair, and back
  await page.keyboard.press('j');
  await page.waitForURL((u) => u.href !== first);
  const second = page.url();
  await expect(page.getByTestId('pair-prev')).toHaveAttribute('href', new URL(first).pathname);
  await keysReady(page);
  await page.keyboard.press('k');
  await page.waitForURL(first);

  // s, three times: each pair saved, the next one opened
  let reviewed = await reviewedOf(page);
  const seen = [first];
  for (let i = 0; i < 3; i++) {
    const here = page.url();
    await expect(page.getByTestId('pair-review-form')).toBeVisible();
    await expect(page.locator('.review-reading[data-reviewed="yes"]')).toHaveCount(0);
    await keysReady(page);
    await page.locator('body').click({ position: { x: 5, y: 5 } }); // focus on the page, not in a text field
    await page.keyboard.press('s');
    await page.waitForURL((u) => u.href !== here);
    seen.push(page.url());
    await expect.poll(() => reviewedOf(page)).toBe(reviewed + 1);
    reviewed += 1;
  }
  expect(seen[1]).toBe(second);
  expect(new Set(seen).size).toBe(4);
  // the pairs walked are stored: back on the first, its readings are marked reviewed
  await page.goto(first);
  await expect(page.locator('.review-reading[data-reviewed="no"]')).toHaveCount(0);
  await expectFits(page, 1440);
});
