import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signInPage } from './users';

// Running a program on the server is an admin's decision (docs/mcp-import.md). scripts/e2e.sh lists
// one stdio server for the accounts app (TCLAB_MCP_SERVERS: "everything", the reference server-everything).
// A researcher picks it by name; a command of their own is refused (403) and nothing runs, even when the
// form is tampered with; a URL on loopback is refused before any connection.

let dir: string;
let listener: Server;
let connections = 0;
let loopbackUrl: string;

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tclab-e2e-mcp-'));
  listener = createServer((_req, res) => res.writeHead(404).end());
  listener.on('connection', () => connections++);
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  loopbackUrl = `http://127.0.0.1:${(listener.address() as { port: number }).port}/mcp`;
});

test.afterAll(async () => {
  await new Promise((r) => listener.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const newForm = async (page: Page, id: string) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Id').fill(id);
  return form;
};

test('a researcher imports from the server an admin listed, by name', async ({ page }) => {
  await signInPage(page, 'researcher');
  const form = await newForm(page, 'listed-everything');
  await form.getByLabel('Start from').selectOption('mcp-listed');
  await form.getByLabel(/Configured server/).selectOption('everything');
  await form.getByRole('button', { name: 'List tools' }).click();
  const listed = page.getByTestId('mcp-tools');
  await expect(listed.locator('legend')).toContainText('tools from mcp-servers/everything');
  await expect(listed.locator('input[name="pick"][value="echo"]')).toHaveCount(1);
});

test('a researcher cannot start a command of their own: not offered, and a tampered form is refused with 403 and runs nothing', async ({ page, baseURL }) => {
  await signInPage(page, 'researcher');
  const form = await newForm(page, 'own-command');
  const sourceOptions = await form
    .getByLabel('Start from')
    .locator('option')
    .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
  expect(sourceOptions).toContain('mcp-listed');
  expect(sourceOptions).not.toContain('mcp-stdio');

  // the form as someone with the browser's developer tools would change it
  const marker = path.join(dir, 'MARKER');
  await form.evaluate((el, line) => {
    const select = el.querySelector('select[name="source"]')!;
    select.insertAdjacentHTML('beforeend', '<option value="mcp-stdio">tampered</option>');
    const input = document.createElement('input');
    input.name = 'command';
    input.value = line;
    el.appendChild(input);
  }, `sh -c 'touch ${marker}'`);
  await form.getByLabel('Start from').selectOption('mcp-stdio');
  const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.request().headers()['next-action'] !== undefined);
  await form.getByRole('button', { name: 'List tools' }).click();
  expect((await answer).status()).toBe(403);
  expect(existsSync(marker)).toBe(false);

  // and the route beside the form
  const res = await page.request.post('/api/tool-snapshots', { data: { command: `sh -c 'touch ${marker}'` }, headers: { origin: baseURL! } });
  expect(res.status()).toBe(403);
  expect(existsSync(marker)).toBe(false);
});

test('a researcher cannot import from a loopback URL an admin did not list: refused before any connection', async ({ page, baseURL }) => {
  await signInPage(page, 'researcher');
  const form = await newForm(page, 'loopback-url');
  await form.getByLabel('Start from').selectOption('mcp-url');
  await form.getByLabel(/^URL/).fill(loopbackUrl);
  await form.getByRole('button', { name: 'List tools' }).click();
  await expect(page.getByTestId('new-errors')).toContainText(`refused to reach ${loopbackUrl}: 127.0.0.1 is a loopback address`);
  const res = await page.request.post('/api/tool-snapshots', { data: { url: loopbackUrl.replace('127.0.0.1', 'localhost') }, headers: { origin: baseURL! } });
  expect(res.status()).toBe(403);
  expect(connections).toBe(0);
});
