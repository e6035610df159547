import { readFile, writeFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { expectFits, startRun } from './helpers';
import { OPENING_HOURS_TEXT, PERSONAL_EMAIL, recordOpenAiLog } from './trace-log';
import { SEARCH_ARGS, TRACE_USER } from '../lib/testing/trace-traffic';

// Cases from real traffic, in the browser: a request/response log the official OpenAI SDK wrote is uploaded,
// the report says what was read, skipped and redacted (the e-mail address is nowhere on the page), a reviewer
// writes a case card for each candidate — a call whose arguments are checked against the tool's schema, a
// rejection with its reason — following "Save and next", and the accepted cases become an experiment that
// runs; a card read again joins that experiment as its next version. At 1440 px, then every page at 390 px.

test('import a request/response log, review its candidates one after another, save the accepted cases as an experiment; 1440 and 390 px', async ({ page }) => {
  const file = await recordOpenAiLog();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Traces' }).click();
  await page.waitForURL(/\/cases$/);
  await page.getByLabel('Format').selectOption('openai-log');
  await page.getByLabel('File', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Import' }).click();
  await page.waitForURL(/\/cases\/[^/]+$/);
  const importUrl = new URL(page.url()).pathname;

  const report = page.getByTestId('trace-report');
  await expect(report).toContainText('5 records');
  // the follow-up call of the same conversation is grouped with its first call: three candidates to review
  await expect(report).toContainText('3 candidates to review, 1 more grouped with a near-duplicate');
  await expect(report).toContainText('no-tools-offered 1');
  await expect(report).toContainText('email 1');
  expect(await page.content()).not.toContain(PERSONAL_EMAIL);
  const rows = page.getByTestId('candidates').locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('[redacted:email]');
  await expect(page.getByTestId('candidates-progress')).toContainText('0 of 3 candidates reviewed');

  // candidate 1: the observed call is the right one; the card is written by the reviewer (nothing prefilled)
  await page.getByRole('link', { name: 'review the next one' }).click();
  await page.waitForURL(/\/cases\/[^/]+\/1$/);
  await expect(page.getByTestId('candidate-conversation')).toContainText(TRACE_USER);
  await expect(page.getByTestId('candidate-observed')).toContainText('search_restaurants');
  await expect(page.getByLabel('Tool', { exact: true })).toHaveValue('');
  await page.getByTestId('save-card').click();
  await expect(page.getByTestId('card-errors')).toContainText('tool');
  await page.getByLabel('Tool', { exact: true }).selectOption('search_restaurants');
  await page.getByLabel(/^Arguments/).fill(JSON.stringify(SEARCH_ARGS));
  await page.getByTestId('save-card').click();

  // the next unreviewed one is 3 (2 goes with 1): arguments of the wrong type are refused by name, then corrected
  await page.waitForURL(/\/cases\/[^/]+\/3$/);
  await expect(page.getByTestId('candidate-conversation')).toContainText('[redacted:email]');
  await page.getByLabel('Tool', { exact: true }).selectOption('book_table');
  await page.getByLabel('Its effect').selectOption('write');
  await page.getByLabel(/^Arguments/).fill('{"restaurant_id": 17, "party_size": 2}');
  await page.getByTestId('save-card').click();
  await expect(page.getByTestId('card-errors')).toContainText('arguments.restaurant_id');
  await expect(page.getByTestId('card-errors')).toContainText('expected string');
  await expect(page.getByTestId('candidate-status')).toHaveText('unreviewed');
  await expect(page.getByLabel('Tool', { exact: true })).toHaveValue('book_table'); // what was typed is kept
  await page.getByLabel(/^Arguments/).fill('{"restaurant_id": "r-17", "party_size": 2}');
  await page.getByTestId('save-card').click();

  // 4: opening hours — no tool of the catalog answers it; rejected with its reason
  await page.waitForURL(/\/cases\/[^/]+\/4$/);
  await expect(page.getByTestId('candidate-conversation')).toContainText(OPENING_HOURS_TEXT);
  await page.getByLabel('Reject the candidate').check();
  await page.getByLabel('Reason').fill('a question for the restaurant, not for these tools');
  await page.getByTestId('save-card').click();

  // nothing left to review: back on the import, every candidate read
  await page.waitForURL((u) => u.pathname === importUrl);
  await expect(page.getByTestId('candidates-progress')).toContainText('3 of 3 candidates reviewed · 2 accepted');
  await expect(rows.getByTestId('candidate-status')).toHaveText(['accepted', 'accepted', 'rejected']);
  // the grouped follow-up shows its head and offers no card of its own
  await page.goto(`${importUrl}/2`);
  await expect(page.getByRole('link', { name: 'candidate 1' })).toBeVisible();
  await expect(page.getByTestId('candidate-review-form')).toHaveCount(0);
  await page.goto(importUrl);

  const id = `e2e-traces-${Date.now()}`;
  await page.getByLabel('Experiment id').fill(id);
  await page.getByTestId('save-cases').click();
  await page.waitForURL(new RegExp(`/experiments/${id}`));
  await expect(page.getByText('Selection on traced requests').first()).toBeVisible();
  // the new version runs: its two cases under both conditions, scored against the cards
  await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(page.getByTestId('progress-done-of-total')).toHaveText(/^([1-9]\d*) \/ \1$/);

  // the rejected candidate read again as STOP (no tool answers opening hours), then the import joins the experiment
  // just saved: that one card is added as its next version; the two already there are listed, not added twice
  await page.goto(`${importUrl}/4`);
  await page.getByLabel('STOP (no tool can do it)').check();
  await page.getByTestId('save-card').click();
  await page.waitForURL((u) => u.pathname === importUrl);
  const join = page.getByRole('form', { name: 'Join the accepted cases to an existing experiment' });
  await join.getByLabel('Experiment').selectOption(`${id}-v1`);
  await join.getByTestId('join-cases').click();
  const joined = join.getByTestId('join-cases-result');
  await expect(joined).toContainText(`Saved as ${id}-v2: 1 case added.`);
  await expect(joined.getByTestId('join-not-added').locator('li')).toHaveText([
    /^Not added: candidate 1: a case with the same task is already in study selection/,
    /^Not added: candidate 3: a case with the same task is already in study selection/,
  ]);
  // joined again: nothing can join, nothing is saved
  await page.reload();
  await join.getByLabel('Experiment').selectOption(`${id}-v2`);
  await join.getByTestId('join-cases').click();
  await expect(join.getByTestId('join-cases-errors')).toContainText('no accepted card can join study selection');
  await page.goto(`/experiments/${id}-v2`);
  await expect(page.getByText('Selection on traced requests').first()).toBeVisible();

  // the same pages on a phone
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ['/cases', importUrl, `${importUrl}/3`]) {
    await page.goto(url);
    await expect(page.locator('h1')).toBeVisible();
    await expectFits(page, 390);
  }
});

test('a log larger than a form post may be (40 MB) is imported from the page, spooled to disk and read line by line; a bad option is named and stores nothing', async ({
  page,
}) => {
  const small = await recordOpenAiLog();
  const text = await readFile(small, 'utf8');
  const copies = Math.ceil((40 << 20) / Buffer.byteLength(text));
  const big = small.replace(/\.jsonl$/, '-large.jsonl');
  await writeFile(big, text.repeat(copies));
  const records = text.trim().split('\n').length * copies;
  await page.goto('/cases');
  const imports = await page.getByTestId('trace-imports').locator('tbody tr').count();
  // a sample that is not a number: named, nothing uploaded or stored
  await page.getByLabel('Format').selectOption('openai-log');
  await page.getByLabel('File', { exact: true }).setInputFiles(big);
  await page.getByLabel(/^Sample/).fill('many');
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByTestId('trace-import-errors')).toContainText('sample');
  await expect(page).toHaveURL(/\/cases$/);
  await page.getByLabel(/^Sample/).fill('');
  await page.getByRole('button', { name: 'Import' }).click();
  await page.waitForURL(/\/cases\/[^/]+$/, { timeout: 120_000 });
  const report = page.getByTestId('trace-report');
  await expect(report).toContainText(`${records} records`);
  // every copy but the first is a duplicate of a conversation already read: the same three to review
  await expect(report).toContainText('3 candidates to review');
  await page.goto('/cases');
  await expect(page.getByTestId('trace-imports').locator('tbody tr')).toHaveCount(imports + 1);
});
