import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startRun } from './helpers';

// Tools brought into the designer from outside, in the browser only: a pasted tools/list (the published
// memory server's, from the project's copy of the public MCP dataset) and a real MCP server over stdio
// (the reference server-everything, a devDependency). The pasted tools become a draft, are edited,
// given one case, saved as v1 and run on the simulated provider.

const MEMORY = readFileSync(path.join(process.cwd(), 'lib/mcp/fixtures/mcp-tools/reference-servers-snapshots/server-memory.json'), 'utf8');
const MEMORY_TOOLS = (JSON.parse(MEMORY) as { tools: { name: string; description: string }[] }).tools;
const EVERYTHING = path.join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

const saved = (page: Page) => expect(page.getByTestId('save-state')).toHaveText('draft saved');
const newForm = async (page: Page, id: string, source: string) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'New experiment' });
  await form.getByLabel('Id').fill(id);
  await form.getByLabel('Start from').selectOption(source);
  return form;
};
const toolIds = async (page: Page) => {
  const scenario = page.getByRole('group', { name: 'Scenario 1' });
  const n = await scenario.getByLabel(/^Tool \d+ id$/).count();
  return Promise.all(Array.from({ length: n }, (_, i) => scenario.getByLabel(`Tool ${i + 1} id`).inputValue()));
};

test('pasted tools/list: bad JSON named, tools listed, three picked into a draft, edited, one case, saved as v1 and run', async ({ page }) => {
  const form = await newForm(page, 'pasted-memory', 'tools-json');
  const json = form.getByLabel('tools/list or OpenAI tools JSON');
  await json.fill('{"tools": [');
  await form.getByRole('button', { name: 'List tools' }).click();
  await expect(page.getByTestId('new-errors')).toContainText('not valid JSON');

  await json.fill(MEMORY);
  await form.getByRole('button', { name: 'List tools' }).click();
  const listed = page.getByTestId('mcp-tools');
  await expect(listed.locator('legend')).toContainText(`${MEMORY_TOOLS.length} tools`);
  await expect(listed.locator('input[name="pick"]')).toHaveCount(MEMORY_TOOLS.length);
  const picked = ['create_entities', 'read_graph', 'search_nodes'];
  for (const t of MEMORY_TOOLS) if (!picked.includes(t.name)) await listed.locator(`input[name="pick"][value="${t.name}"]`).uncheck();
  await form.getByRole('button', { name: 'Create the draft with these tools' }).click();
  await page.waitForURL(/\/designer\/pasted-memory$/);

  // the draft holds the picked tools, in the server's order, traced to their snapshot
  expect(await toolIds(page)).toEqual(picked);
  await expect(page.getByRole('group', { name: 'Scenario 1' })).toContainText('tools from snapshot');
  const description = (condition: string, tool: string) =>
    page.getByRole('group', { name: `Definition ${tool} (${condition}, tools/en)` }).getByLabel(`Description of ${tool}`);
  const published = MEMORY_TOOLS.find((t) => t.name === 'read_graph')!.description;
  await expect(description('published', 'read_graph')).toHaveValue(published);
  await expect(description('rewritten', 'read_graph')).toHaveValue(published);

  // unannotated tools are taken as writes; the user says read_graph and search_nodes only read
  const scenario = page.getByRole('group', { name: 'Scenario 1' });
  await expect(scenario.getByLabel('Tool 2 effect')).toHaveValue('write');
  await scenario.getByLabel('Tool 2 effect').selectOption('read');
  await scenario.getByLabel('Tool 3 effect').selectOption('read');
  await description('rewritten', 'read_graph').fill('Read-only: returns the whole knowledge graph (every entity and relation) and changes nothing.');
  await expect(page.getByRole('group', { name: 'Definition read_graph (rewritten, tools/en)' }).getByTestId('word-diff')).toContainText('Read-only');

  await page.getByRole('button', { name: 'Add case' }).click();
  const card = page.getByTestId('case-case-1');
  await card.getByLabel('Task text').fill('Show me everything stored in the knowledge graph.');
  await card.getByLabel('Expected (tool-choice): decision').selectOption('read');
  await card.getByLabel('Expected (tool-choice): tool').selectOption('read_graph');
  await card.getByLabel('Expected (tool-choice): call count').fill('1');
  await saved(page);
  // three tools → three rotations per case, two conditions
  await expect(page.getByTestId('preview-formal')).toHaveText('6');
  await expect(page.getByTestId('draft-issues')).toContainText('valid');

  await page.reload();
  await expect(page.getByRole('group', { name: 'Scenario 1' }).getByLabel('Tool 2 effect')).toHaveValue('read');
  await expect(description('rewritten', 'read_graph')).toHaveValue(/^Read-only: returns the whole knowledge graph/);

  await page.getByRole('button', { name: 'Save as version 1' }).click();
  await page.waitForURL(/\/experiments\/pasted-memory-v1\?imported=new/);
  const spec = (await (await page.request.get('/api/experiments/pasted-memory-v1')).json()) as {
    scenarios: { tools: { id: string; effect: string }[] }[];
  };
  expect(spec.scenarios[0].tools).toEqual([
    expect.objectContaining({ id: 'create_entities', effect: 'write' }),
    expect.objectContaining({ id: 'read_graph', effect: 'read' }),
    expect.objectContaining({ id: 'search_nodes', effect: 'read' }),
  ]);
  await expect(page.getByTestId('formal-total')).toHaveText('6');
  await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(page.getByTestId('progress-done-of-total')).toHaveText('6 / 6');
  await expect(page.getByTestId('t1-row-tools-en')).toBeVisible();
});

test('an MCP server over stdio: its tools listed, three picked into a draft with the effects its annotations declare', async ({ page }) => {
  const form = await newForm(page, 'mcp-everything', 'mcp-stdio');
  await form.getByLabel('Command').fill(`${process.execPath} ${EVERYTHING}`);
  await form.getByRole('button', { name: 'List tools' }).click();
  const listed = page.getByTestId('mcp-tools');
  await expect(listed.locator('legend')).toContainText('tools from');
  const names = await listed.locator('input[name="pick"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  expect(names).toContain('echo');
  expect(names.length).toBeGreaterThan(3);
  const picked = ['echo', 'get-sum', 'toggle-simulated-logging'];
  for (const n of picked) expect(names).toContain(n);
  for (const n of names) if (!picked.includes(n)) await listed.locator(`input[name="pick"][value="${n}"]`).uncheck();
  await form.getByRole('button', { name: 'Create the draft with these tools' }).click();
  await page.waitForURL(/\/designer\/mcp-everything$/);
  expect(await toolIds(page)).toEqual(picked);
  const scenario = page.getByRole('group', { name: 'Scenario 1' });
  await expect(scenario).toContainText('tools from snapshot');
  // effects from the server's annotations: readOnlyHint true → read, false → write
  await expect(scenario.getByLabel('Tool 1 effect')).toHaveValue('read');
  await expect(scenario.getByLabel('Tool 2 effect')).toHaveValue('read');
  await expect(scenario.getByLabel('Tool 3 effect')).toHaveValue('write');
});
