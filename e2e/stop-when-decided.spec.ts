import { expect, test } from '@playwright/test';

// Stop when decided (docs/statistics.md): the switch in the Run dialog, and the run page saying when and why
// each study stopped, with both intervals labelled. The reference study on the simulated provider is decided
// long before its 48 + 28 pairs are all sent.
test('a run with "Stop when decided" stops each study early and the run page says when and why', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await expect(page.locator('#run-provider')).toHaveValue('simulated');
  await page.locator('#run-stopWhenDecided').check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 1000 });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByTestId('stopped-when-decided')).toContainText(/selection stopped: decided after \d+ pairs of 48/);
  await expect(page.getByTestId('stopping-selection')).toContainText(/stopped: decided after \d+ pairs of 48/);
  const row = page.getByTestId('stopping-selection-clear');
  // Holm over the run's two comparisons: the first decided needs 2/α = 40, the last one standing 1/α = 20 — which
  // comes first depends on the order drawn for this run (its seed is random: one seed gives one stop, not this test's)
  await expect(row).toContainText(/e-value [\d.]+ ≥ (40|20) /);
  const threshold = Number(/e-value [\d.]+ ≥ (\d+) /.exec(await row.innerText())![1]);
  // the words agree with the numbers (docs/statistics.md, "Stopping when decided"): the pairs of the decision and of
  // the interval are both named, the threshold is explained, and the reading is the one vocabulary's, read on the
  // interval shown
  const pairs = await page.getByTestId('stopping-pairs-selection-clear').innerText();
  const m = pairs.match(/^decided after (\d+) pairs; the interval is over (?:the same )?(\d+) pairs/);
  expect(m, pairs).not.toBeNull();
  const cell = await row.locator('td.num').first().innerText();
  expect(cell).toContain(`(${m![2]} pairs)`);
  if (m![1] !== m![2]) expect(pairs).toContain(`the ${Number(m![2]) - Number(m![1])} in flight at the decision included`);
  await expect(page.getByTestId('stopping-threshold-selection-clear')).toContainText(
    threshold === 40 ? /threshold 40 = 2\/α: .*Holm/ : /threshold 20 = 1\/α: .*the last comparison still standing, Holm/,
  );
  const reading = await page.getByTestId('stopping-reading-selection-clear').innerText();
  expect(reading).toMatch(/^(improved|worse|not shown|too few pairs to tell) — /);
  const [lo, hi] = [...cell.matchAll(/([+-]?\d+\.\d) pts/g)].slice(0, 2).map((x) => Number(x[1]));
  if (lo !== undefined && hi !== undefined && lo <= 0 && hi >= 0) expect(reading).toMatch(/^not shown — the interval includes zero/);
  if (reading.startsWith('improved')) expect(lo).toBeGreaterThan(0);
  await expect(page.getByTestId('stopping')).toContainText('anytime-valid 95% confidence sequence');
  await expect(page.getByTestId('stopping')).toContainText('Fixed-n 95% interval');
  await expect(page.getByTestId('stopping')).toContainText(/\d+ of 152 trials not sent/);
});
