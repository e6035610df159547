import { expect, test } from '@playwright/test';
import { startRun } from '../helpers';
import { account, signInPage } from './users';

// Two people on one shared app: a researcher runs, a reviewer reviews; each door checks the role on the
// server, and the audit list names who did what.

test('a researcher starts and cancels runs, a reviewer reviews but cannot run; the audit names both', async ({ browser, baseURL }) => {
  const researcher = await browser.newPage({ baseURL });
  const reviewer = await browser.newPage({ baseURL });
  const researcherEmail = account('researcher').email;
  const reviewerEmail = account('reviewer').email;

  // nobody signed in: the app asks for a sign-in first
  await reviewer.goto('/runs');
  await reviewer.waitForURL(/\/sign-in\?next=%2Fruns/);

  await signInPage(researcher, 'researcher');
  await researcher.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await researcher.waitForURL(/\/experiments\//);
  const experimentUrl = researcher.url();

  // a run to cancel: one request a minute, so it is still going
  const cancelled = await startRun(researcher, { concurrency: '1', requestsPerMinute: '1' });
  await researcher.getByRole('button', { name: 'Cancel' }).click();
  await researcher.getByRole('button', { name: 'Stop the run for good' }).click();
  await expect(researcher.getByTestId('run-status')).toHaveText('cancelled');
  await researcher.reload();
  const cancelAudit = researcher.getByTestId('audit');
  await expect(cancelAudit.locator('tr', { hasText: 'started the run' })).toContainText(researcherEmail);
  await expect(cancelAudit.locator('tr', { hasText: 'cancelled' })).toContainText(researcherEmail);

  // a run to review
  await researcher.goto(experimentUrl);
  const runId = await startRun(researcher);
  await expect(researcher.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });

  // the reviewer: no Run button, and the run API refuses them
  await signInPage(reviewer, 'reviewer', experimentUrl.replace(baseURL!, ''));
  await expect(reviewer.getByTestId('run-not-allowed')).toBeVisible();
  await expect(reviewer.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0);
  await expect(reviewer.getByTestId('edit-experiment')).toHaveCount(0);
  const refused = await reviewer.request.post(`/api/runs/${encodeURIComponent(runId)}/control`, { data: { action: 'pause' }, headers: { origin: baseURL! } });
  expect(refused.status()).toBe(403);
  await reviewer.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(reviewer.getByTestId('run-status')).toHaveText('completed');
  await expect(reviewer.getByRole('button', { name: 'Cancel' })).toHaveCount(0);

  // … but can review: the review is saved under the reviewer's account, not a typed name
  await reviewer.getByTestId('review-link').click();
  await reviewer.waitForURL(/\/review$/);
  await reviewer.getByTestId('review-pairs').locator('tbody tr').first().getByRole('link', { name: 'side by side' }).click();
  await reviewer.waitForURL(/\/pairs\//);
  const form = reviewer.locator('form.review-form');
  await expect(form.getByTestId('reviewing-as')).toHaveText(`as ${reviewerEmail}`);
  await expect(form.getByLabel('Reviewer')).toHaveCount(0);
  await form.getByLabel('Note').first().fill('checked by hand');
  await form.getByTestId('save-readings').click();
  await expect(form.getByRole('status')).toContainText(`by ${reviewerEmail}.`);
  const pairUrl = reviewer.url();

  // the researcher sees the review under the reviewer's account, and no review form of their own
  await researcher.goto(pairUrl);
  await expect(researcher.getByTestId('stored-review').first()).toContainText(reviewerEmail);
  await expect(researcher.locator('form.review-form')).toHaveCount(0);

  // the run's audit list names both, and so does its JSON export
  await researcher.goto(`/runs/${encodeURIComponent(runId)}`);
  const audit = researcher.getByTestId('audit');
  await expect(audit.locator('tr', { hasText: 'started the run' })).toContainText(researcherEmail);
  await expect(audit.locator('tr', { hasText: 'reviewed a check' }).first()).toContainText(reviewerEmail);
  const exported = (await (await researcher.request.get(`/api/runs/${encodeURIComponent(runId)}/export/json`)).json()) as { audit: { actor: string; action: string }[] };
  // one reading per scored check of the pair, all saved at once, each audited under the reviewer
  const audited = exported.audit.map((a) => [a.actor, a.action]);
  expect(audited[0]).toEqual([researcherEmail, 'run.started']);
  expect(audited.length).toBeGreaterThan(1);
  expect(audited.slice(1)).toEqual(audited.slice(1).map(() => [reviewerEmail, 'review.saved']));
  const verdict = JSON.stringify(exported).includes(`"reviewer":"${reviewerEmail}"`);
  expect(verdict).toBe(true);

  // the researcher shares the unreviewed pairs between two accounts that may review, one each in turn
  const adminEmail = account('admin').email;
  await researcher.goto(`/runs/${encodeURIComponent(runId)}/review`);
  const share = researcher.getByTestId('share-review');
  const unassigned = Number(/(\d+) unreviewed/.exec((await share.textContent())!)![1]);
  expect(unassigned).toBeGreaterThan(1);
  await share.getByRole('button', { name: /^Share/ }).click();
  await expect(share.getByTestId('share-error')).toHaveText('reviewers: pick at least one reviewer');
  await share.getByLabel(reviewerEmail, { exact: true }).check();
  await share.getByLabel(adminEmail, { exact: true }).check();
  await share.getByRole('button', { name: /^Share/ }).click();
  // the first account in the form's order gets the first pair, and so one more when the count is odd
  const order = (await share.locator('input[name="reviewer"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).filter(
    (e) => e === reviewerEmail || e === adminEmail,
  );
  const got = new Map(order.map((e, i) => [e, i === 0 ? Math.ceil(unassigned / 2) : Math.floor(unassigned / 2)]));
  const mineCount = got.get(reviewerEmail)!;
  await expect(share.getByRole('status')).toHaveText(`Shared ${unassigned} pairs: ${order.map((e) => `${e} ${got.get(e)}`).join(', ')}.`);
  // the reviewer's own queue holds their pairs, and no share form (sharing is for who controls the run)
  await reviewer.goto(`/runs/${encodeURIComponent(runId)}/review`);
  await expect(reviewer.getByTestId('share-review')).toHaveCount(0);
  await reviewer.getByTestId('show-mine').click();
  await reviewer.waitForURL(/show=mine/);
  const mine = reviewer.getByTestId('review-pairs').locator('tbody tr');
  await expect(mine).toHaveCount(mineCount);
  await expect(mine.getByTestId('pair-assignee')).toHaveText(Array(mineCount).fill(reviewerEmail));
  // a pair opened from it keeps the filter: previous and next walk the reviewer's own pairs
  await mine.getByRole('link', { name: 'side by side' }).first().click();
  await reviewer.waitForURL(/\/pairs\/.*show=mine/);
  for (const link of await reviewer.locator('[data-testid="pair-next"], [data-testid="pair-prev"]').all()) await expect(link).toHaveAttribute('href', /show=mine/);
  await reviewer.setViewportSize({ width: 390, height: 844 });
  await reviewer.goto(`/runs/${encodeURIComponent(runId)}/review?show=mine`);
  expect(await reviewer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await researcher.goto(`/runs/${encodeURIComponent(runId)}`);
  await expect(researcher.getByTestId('audit').locator('tr', { hasText: 'shared review pairs' })).toContainText(researcherEmail);

  // the experiment's audit list holds both runs' entries
  await researcher.goto(experimentUrl);
  await expect(researcher.getByTestId('audit').locator('tr', { hasText: 'cancelled' })).toContainText(cancelled);

  // signing out ends the session
  await researcher.getByRole('button', { name: 'Sign out' }).click();
  await researcher.waitForURL(/\/sign-in/);
  await researcher.goto('/runs');
  await researcher.waitForURL(/\/sign-in\?next=/);
});
