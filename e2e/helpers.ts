import { expect, type Page } from '@playwright/test';

export const XSS = '<img src=x onerror=alert(1)>';

/** A tiny valid experiment (one scenario, one locale, one case, two conditions); `task` may carry hostile text. */
export function tinyExperiment(id: string, task = 'Show invoice INV-7.'): Record<string, unknown> {
  const tools = (clear: boolean) => ({
    invoice: {
      en: [
        { tool: 'lookup', name: 'get_invoice', description: clear ? 'Read-only: looks up an invoice.' : 'Handles invoice-related requests.', parameters: { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_id'] } },
        { tool: 'pay', name: 'pay_invoice', description: clear ? 'Writes: submits a payment for an invoice.' : 'Handles invoice-related requests.', parameters: { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_id'] } },
      ],
    },
  });
  return {
    format: 'tclab.experiment/v1',
    id,
    name: `E2E ${id}`,
    locales: ['en'],
    scenarios: [{ id: 'invoice', title: 'Invoice', tools: [{ id: 'lookup', effect: 'read' }, { id: 'pay', effect: 'write' }] }],
    studies: [
      {
        id: 'selection',
        kind: 'selection',
        title: 'Selection',
        protocol: { system: { en: 'Use a tool, or answer CLARIFY: / STOP:.' } },
        conditions: [
          { id: 'overlapping', label: 'Overlapping', baseline: true, tools: tools(false) },
          { id: 'clear', label: 'Clear', tools: tools(true) },
        ],
        cases: [{ id: 'read-1', scenario: 'invoice', locale: 'en', task, checks: [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: 'read', tool: 'lookup', call_count: 1 } }] }],
      },
    ],
  };
}

/** Paste a spec into the import form on `/` and submit it. */
export async function importViaForm(page: Page, spec: unknown): Promise<void> {
  await page.goto('/');
  const text = typeof spec === 'string' ? spec : JSON.stringify(spec);
  await page.getByLabel('Spec JSON').fill(text);
  await page.getByRole('button', { name: 'Import' }).click();
}

/** Start a run from the experiment page's Run form (simulated by default); lands on the run page. */
export async function startRun(page: Page, settings: Record<string, string> = {}): Promise<string> {
  await expect(page.locator('#run-provider')).toHaveValue('simulated');
  for (const [name, value] of Object.entries(settings)) await page.locator(`#run-${name}`).fill(value);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  expect(id).not.toBe('');
  return id;
}

/** Records every script dialog (an injected `alert`) so the test can assert there was none. */
export function recordDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (d) => {
    seen.push(d.message());
    void d.dismiss();
  });
  return seen;
}

export async function doneCount(page: Page): Promise<number> {
  return Number(await page.getByTestId('progress-done').textContent());
}
