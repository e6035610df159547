import { expect, test, type Page } from '@playwright/test';
import { expectFits, runReferenceStudy } from './helpers';

// The grid's "changed rows only" (docs/results.md): only the cases whose conditions did different things in
// some order and replicate — read here from the chips themselves, before the switch — at 1440 and 390 px.

/** Per row of the grid: its case, and whether its conditions' chips differ place by place. */
async function rowsOf(page: Page): Promise<{ caseId: string; differs: boolean }[]> {
  return page
    .getByTestId('choice-grid')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((tr) => {
        const cells = [...tr.querySelectorAll('td[data-condition]')];
        const at = new Map<string, { outcomes: Set<string>; n: number }>();
        for (const td of cells)
          for (const chip of td.querySelectorAll('[data-testid="choice-cell"]')) {
            const place = `${chip.getAttribute('data-order')}|${/·r(\d+)/.exec(chip.textContent ?? '')?.[1] ?? '1'}`;
            const status = [...chip.classList].find((c) => c.startsWith('status-'));
            const x = at.get(place) ?? { outcomes: new Set<string>(), n: 0 };
            // a tool by its scenario id: conditions may send it under other names
            x.outcomes.add(`${chip.getAttribute('data-tool') ?? chip.getAttribute('data-chosen')}|${status}`);
            x.n += 1;
            at.set(place, x);
          }
        const differs = cells.length > 1 && [...at.values()].some((x) => x.outcomes.size > 1 || x.n < cells.length);
        return { caseId: tr.getAttribute('data-case')!, differs };
      }),
    );
}

test("the grid's changed rows only: exactly the cases whose conditions did different things, at 1440 and 390 px", async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await runReferenceStudy(page);
  // a section of the grid where some cases changed and some did not (the switch has something to show and to hide)
  let runUrl = '';
  const sections = await page.locator('nav[aria-label="Grid section"] a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  for (const url of [page.url(), ...sections]) {
    await page.goto(url);
    const rows = await rowsOf(page);
    const n = rows.filter((r) => r.differs).length;
    if (n > 0 && n < rows.length) {
      runUrl = url;
      break;
    }
  }
  expect(runUrl, 'a section with changed and unchanged cases').not.toBe('');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(runUrl);
    const all = await rowsOf(page);
    const changed = all.filter((r) => r.differs).map((r) => r.caseId);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(all.length);
    await page.getByTestId('changed-rows-toggle').click();
    await page.waitForURL(/choicesChanged=1/);
    await expect(page.getByTestId('changed-rows-count')).toContainText(`showing ${changed.length} of ${all.length} cases`);
    await expect(page.getByTestId('choice-grid').locator('tbody tr')).toHaveCount(changed.length);
    expect((await rowsOf(page)).map((r) => r.caseId)).toEqual(changed);
    await expectFits(page, width);
    // and off again: every case
    await page.getByTestId('changed-rows-toggle').click();
    await page.waitForURL((u) => !u.search.includes('choicesChanged'));
    await expect(page.getByTestId('choice-grid').locator('tbody tr')).toHaveCount(all.length);
  }
});
