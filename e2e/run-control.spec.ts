import { expect, test, type APIRequestContext } from '@playwright/test';
import { importViaForm, startRun } from './helpers';

async function apiProgress(request: APIRequestContext, runId: string): Promise<{ done: number; inFlight: number }> {
  const res = await request.get(`/api/runs/${encodeURIComponent(runId)}/progress`);
  return ((await res.json()) as { progress: { done: number; inFlight: number } }).progress;
}

async function apiDone(request: APIRequestContext, runId: string): Promise<number> {
  return (await apiProgress(request, runId)).done;
}

test('pause stops new requests, resume continues, cancel ends the run', async ({ page, request }) => {
  // a long run: the reference study with 30 replicates (≈4,560 trials), one request at a time
  await page.goto('/');
  const href = await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().getAttribute('href');
  const refId = decodeURIComponent(href!.split('/').pop()!);
  const res = await request.get(`/api/experiments/${encodeURIComponent(refId)}`);
  expect(res.ok()).toBe(true);
  const spec = (await res.json()) as Record<string, unknown>;
  const id = `e2e-long-${Date.now()}`;
  await importViaForm(page, { ...spec, id, name: `E2E long run ${id}`, replicates: 30 });
  await page.waitForURL(/\/experiments\//);
  await expect(page.getByTestId('formal-total')).toHaveText('4,560');

  const runId = await startRun(page, { concurrency: '1' });
  await expect(page.getByTestId('run-status')).toHaveText('running', { timeout: 30_000 });
  await expect.poll(() => apiDone(request, runId), { timeout: 30_000 }).toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('paused');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeDisabled();
  // A trial a worker claimed before the pause may still land; once none is claimed (a paused run's trials
  // cannot be claimed), the count is final until resumed.
  await expect.poll(async () => (await apiProgress(request, runId)).inFlight, { timeout: 20_000 }).toBe(0);
  const paused = await apiDone(request, runId);
  expect(paused).toBeLessThan(4560);
  await expect(page.getByTestId('progress-done')).toHaveText(String(paused));

  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect.poll(() => apiDone(request, runId), { timeout: 30_000 }).toBeGreaterThan(paused);

  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Stop the run for good' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('cancelled');
  await expect(page.getByTestId('control-message')).toContainText('cancelled');
  for (const name of ['Pause', 'Resume', 'Cancel']) await expect(page.getByRole('button', { name })).toBeDisabled();
});
