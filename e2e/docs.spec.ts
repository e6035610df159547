import { expect, test } from '@playwright/test';
import { expectFits } from './helpers';

// The docs in the app: reachable from every page's header and from the mentions on the pages (the Run form's
// "docs/statistics.md"), rendered with their headings' anchors, links between pages going to the app's pages.

for (const width of [1440, 390]) {
  test(`docs: from the header and from a mention on a page to the page and its anchor, links between pages followed (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Docs' }).click();
    await page.waitForURL(/\/docs$/);
    await expect(page.getByTestId('docs-list').getByRole('link')).not.toHaveCount(0);
    await page.getByTestId('docs-list').getByRole('link', { name: 'What the numbers mean' }).click();
    await page.waitForURL(/\/docs\/statistics$/);
    await expect(page.locator('h1')).toHaveText('What the numbers mean');
    await expect(page.locator('#reading-a-comparison-libanalysisreadingts')).toBeVisible();
    await expectFits(page, width);

    // a link to another page of the docs goes to that page in the app
    const link = page.getByTestId('doc').locator('a[href^="/docs/"]').first();
    const href = (await link.getAttribute('href'))!;
    await link.click();
    await page.waitForURL((u) => u.pathname === href.split('#')[0]);
    await expect(page.locator('h1')).toBeVisible();
    await expectFits(page, width);

    // a mention on a page is a link: the Run form's stop-when-decided hint
    await page.goto('/');
    await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
    await page.waitForURL(/\/experiments\//);
    await page.getByRole('link', { name: 'docs/statistics.md' }).first().click();
    await page.waitForURL(/\/docs\/statistics$/);
    await expect(page.locator('h1')).toHaveText('What the numbers mean');
  });
}
