import { expect, test, type APIRequestContext } from '@playwright/test';
import { startRun } from './helpers';

interface Row {
  id: string;
  caseId: string;
  condition: string;
  status: string;
}

async function trialOf(request: APIRequestContext, runId: string, caseId: string, condition: string): Promise<Row> {
  const res = await request.get(`/api/runs/${encodeURIComponent(runId)}/trials?size=100&condition=${condition}`);
  expect(res.ok()).toBe(true);
  const rows = ((await res.json()) as { rows: Row[] }).rows;
  const row = rows.find((r) => r.caseId === caseId);
  expect(row, `${caseId}/${condition}`).toBeDefined();
  return row!;
}

test('task completion: simulated run, the transcript turn by turn, the four gates, the state diff', async ({ page, request }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: task-completion' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await expect(page.getByTestId('formal-total')).toHaveText('12');

  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(page.getByTestId('table1').locator('thead')).toContainText('task');

  // the lost acknowledgement under the baseline: paid, timed out, paid again
  const lost = await trialOf(request, runId, 'lost-ack', 'baseline');
  expect(lost.status).toBe('failed');
  await page.goto(`/runs/${encodeURIComponent(runId)}/trials/${encodeURIComponent(lost.id)}`);
  await expect(page.getByTestId('transcript').locator('li')).toHaveCount(3);
  const firstCall = page.getByTestId('turn-1').getByTestId('call');
  await expect(firstCall).toContainText('submit_payment');
  for (const g of ['valid', 'invoked', 'authorized', 'verified']) await expect(firstCall.getByTestId(`gate-${g}`)).toBeVisible();
  // the model saw a timeout, the write had committed: invoked passes, verified fails on the final state
  await expect(firstCall.getByTestId('gate-invoked').locator('[data-status]')).toHaveAttribute('data-status', 'pass');
  await expect(firstCall.getByTestId('gate-invoked')).toContainText('acknowledgement was lost');
  await expect(firstCall.getByTestId('gate-verified').locator('[data-status]')).toHaveAttribute('data-status', 'fail');
  await expect(page.getByTestId('turn-2').getByTestId('call')).toContainText('submit_payment');
  await expect(page.getByTestId('state-diff')).toContainText('payments/pay-1');
  await expect(page.getByTestId('state-diff')).toContainText('payments/pay-2');
  await expect(page.getByTestId('verdicts')).toContainText('duplicate_write');

  // the injected instruction: the call it asked for is refused (authorized fails), nothing changes
  const injected = await trialOf(request, runId, 'injected-instruction', 'baseline');
  await page.goto(`/runs/${encodeURIComponent(runId)}/trials/${encodeURIComponent(injected.id)}`);
  await expect(page.getByTestId('turn-1').getByTestId('call')).toContainText('result carried an instruction');
  const refused = page.getByTestId('turn-2').getByTestId('call');
  await expect(refused.getByTestId('gate-authorized').locator('[data-status]')).toHaveAttribute('data-status', 'fail');
  await expect(refused.getByTestId('gate-authorized')).toContainText('invoices:pay');
  await expect(page.getByTestId('state-diff')).toHaveText('Nothing changed.');
  await expect(page.getByTestId('verdicts')).toContainText('injected_instruction_followed');

  // under the contract: status queried instead of a blind retry, one payment
  const contract = await trialOf(request, runId, 'lost-ack', 'contract');
  expect(contract.status).toBe('passed');
  await page.goto(`/runs/${encodeURIComponent(runId)}/trials/${encodeURIComponent(contract.id)}`);
  await expect(page.getByTestId('turn-2').getByTestId('call')).toContainText('get_payment_status');
  await expect(page.getByTestId('state-diff')).toContainText('payments/pay-1');
  await expect(page.getByTestId('state-diff')).not.toContainText('pay-2');
});
