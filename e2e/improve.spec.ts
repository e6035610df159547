import { expect, test } from '@playwright/test';
import { confusionsText, funnelText, perRequestText } from '../lib/analysis/side-effects';
import type { StoredRanked } from '../lib/schema/optimisation';
import { expectFits } from './helpers';
import { politelyIgnored } from '../lib/templates/politely-ignored';
import { defaultSplits, splitStudy } from '../lib/design/splits';

// Improve descriptions from the browser (docs/optimise.md): on the politely-ignored template, a wrong split is
// refused at its field and nothing starts; then the defaults start the loop — the page shows the seal the
// split's seed gives, every candidate ranked on the select run, the frozen winner and the confirmation in words
// — at 1440 px, and the page fits 390 px.

test('improve descriptions: the seal, the candidates ranked, the winner frozen and confirmed on the sealed split; 1440 and 390 px', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: politely-ignored' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await page.getByTestId('improve-link').click();
  await page.waitForURL(/\/improve$/);
  const before = await page.getByTestId('optimisation').count();

  // a split that does not add up to 100: named, nothing started
  await page.getByLabel('Split', { exact: false }).fill('50/30/30');
  await page.getByRole('button', { name: 'Start improving' }).click();
  await expect(page.getByTestId('optimise-errors')).toContainText('split');
  await expect(page.getByTestId('optimise-errors')).toContainText('adding up to 100');
  // a simulated rewriter: it writes no descriptions — named, nothing asked, nothing started
  await page.getByLabel('Split', { exact: false }).fill('');
  await page.getByLabel('Rewriter', { exact: false }).fill('simulated:simulated-lexical-v1');
  await page.getByRole('button', { name: 'Start improving' }).click();
  await expect(page.getByTestId('optimise-errors')).toContainText('rewriter');
  await expect(page.getByTestId('optimise-errors')).toContainText('a simulated model writes no descriptions');
  // a budget of no request: named, nothing started
  await page.getByLabel('Rewriter', { exact: false }).fill('');
  await page.locator('#opt-budget-requests').fill('0');
  await page.getByRole('button', { name: 'Start improving' }).click();
  await expect(page.getByTestId('optimise-errors')).toContainText('budget-requests');
  await page.reload();
  await expect(page.getByTestId('optimisation')).toHaveCount(before);

  // the defaults: the study's split (else 40/30/30) and seed 0, rule best, the template's simulated model
  await page.getByLabel('Split', { exact: false }).fill('');
  await page.getByLabel('Study', { exact: true }).selectOption('selection');
  // with a budget over the whole loop, larger than it needs
  await page.locator('#opt-budget-requests').fill('100000');
  await page.getByRole('button', { name: 'Start improving' }).click();
  await page.waitForURL(/\/improve\?record=/);
  const id = new URL(page.url()).searchParams.get('record')!;
  const record = page.locator(`[data-testid="optimisation"][data-id="${id}"]`);
  await expect(record).toBeVisible();
  // the seal shown is the one the seed gives for the study's cases
  const study = politelyIgnored().studies.find((s) => s.id === 'selection')!;
  const sealed = splitStudy(study, study.splits ?? defaultSplits(0)).sealed;
  await expect(record.getByTestId('sealed')).toHaveText(`sealed: ${sealed.count} cases, ${sealed.sha256}`);

  // the worker moves it on; the page follows until the record is final
  await expect(record.getByTestId('optimisation-stage')).toHaveAttribute('data-stage', /^(confirmed|no-winner)$/, { timeout: 180_000 });
  const candidates = await record.getByTestId('optimisation-candidates').locator('tbody tr').count();
  expect(candidates).toBeGreaterThan(1);
  // every candidate is ranked, rejected ones and the placebo included
  await expect(record.getByTestId('optimisation-ranking').locator('tbody tr')).toHaveCount(candidates);
  await expect(record.getByTestId('optimisation-ranking').locator('tbody tr', { hasText: 'placebo' })).toHaveCount(1);
  const stage = await record.getByTestId('optimisation-stage').getAttribute('data-stage');
  if (stage === 'confirmed') {
    const winners = await record.locator('tr[data-winner="yes"]').count();
    expect(winners).toBe(1); // rule: best
    await expect(record.getByTestId('optimisation-frozen')).toContainText('Frozen:');
    await expect(record.getByTestId('confirm-sentence')).toHaveCount(1);
    await expect(record.getByTestId('confirm-sentence')).not.toBeEmpty();
    // the winner's definitions to take home, as an MCP tools/list result: the descriptions it changed
    const mcp = await page.request.get((await record.getByTestId('winner-mcp').getAttribute('href'))!);
    expect(mcp.status()).toBe(200);
    const file = (await mcp.json()) as { tools: { name: string; description: string; inputSchema: unknown }[] };
    const stored = (await (await page.request.get((await record.getByTestId('optimisation-json').getAttribute('href'))!)).json()) as {
      winners: string[];
      candidates: { condition: string; changes: { after: string }[] }[];
    };
    const changed = stored.candidates.find((c) => c.condition === stored.winners[0])!.changes;
    expect(changed.length).toBeGreaterThan(0);
    for (const ch of changed) expect(file.tools.map((t) => `${t.description}\n${JSON.stringify(t.inputSchema)}`)).toContain(ch.after);
  } else {
    await expect(record.getByTestId('optimisation-frozen')).toContainText('No winner');
  }

  // the JSON download is the record the page shows
  const json = await page.request.get((await record.getByTestId('optimisation-json').getAttribute('href'))!);
  expect(json.status()).toBe(200);
  const stored = (await json.json()) as {
    id: string;
    stage: string;
    sealed: typeof sealed;
    winners: string[] | null;
    result: { select: { ranked: unknown[]; currency?: string | null } };
  };
  expect(stored).toMatchObject({ id, stage, sealed });
  expect(stored.result.select.ranked).toHaveLength(candidates);
  // beside each candidate its side effects, in the words the record's numbers give
  for (const c of stored.result.select.ranked as StoredRanked[]) {
    const row = record.locator(`tr[data-candidate="${c.candidate}"]`);
    await expect(row.getByTestId('new-confusions')).toHaveText(confusionsText(c.sideEffects!.newConfusions));
    await expect(row.getByTestId('per-request')).toHaveText(perRequestText(c.sideEffects!.perRequest, stored.result.select.currency));
  }
  // no catalog, no funnel column
  await expect(record.getByRole('columnheader', { name: /^Funnel/ })).toHaveCount(0);
  expect(stored.winners ?? []).toEqual(await record.locator('tr[data-winner="yes"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-candidate'))));

  // …and as Markdown for a paper or a pull request, with the same seal and readings
  const md = await (await page.request.get((await record.getByTestId('optimisation-md').getAttribute('href'))!)).text();
  expect(md).toContain(`sealed: ${sealed.count} cases, \`${sealed.sha256}\``);
  for (const sentence of await record.getByTestId('confirm-sentence').allTextContents()) expect(md).toContain(sentence);
  // …and as LaTeX tables for a paper: the same seal, one row per confirmed reading
  const tex = await page.request.get((await record.getByTestId('optimisation-tex').getAttribute('href'))!);
  expect(tex.headers()['content-type']).toContain('application/x-tex');
  const texText = await tex.text();
  expect(texText).toContain(`sealed: ${sealed.count} cases, ${sealed.sha256}`);
  expect(texText.match(/\\begin\{tabular\}/g)!.length).toBeGreaterThanOrEqual(2);

  // for a look (asserts nothing): the README's docs/img/improve.png is this record
  await record.screenshot({ path: 'test-results/improve/record.png' });

  // the select run is a run like any other
  const selectRun = await record.getByRole('link', { name: /^run / }).first().getAttribute('href');
  await expectFits(page, 1440);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFits(page, 390);
  await page.goto(selectRun!);
  await expect(page.getByTestId('run-status')).toHaveText('completed');
  // …which names the record it belongs to
  await expect(page.getByTestId('run-optimisation')).toContainText('The select run of an optimisation');
  await page.getByTestId('run-optimisation').getByRole('link', { name: 'The record' }).click();
  await page.waitForURL((u) => u.searchParams.get('record') === id);
});

test("improve descriptions on a catalog study: each candidate's funnel beside it; 1440 and 390 px", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: catalog-scale' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await page.getByTestId('improve-link').click();
  await page.waitForURL(/\/improve$/);
  await page.getByLabel('Study', { exact: true }).selectOption('selection');
  await page.getByRole('button', { name: 'Start improving' }).click();
  await page.waitForURL(/\/improve\?record=/);
  const id = new URL(page.url()).searchParams.get('record')!;
  const record = page.locator(`[data-testid="optimisation"][data-id="${id}"]`);
  await expect(record.getByTestId('optimisation-stage')).toHaveAttribute('data-stage', /^(confirmed|no-winner)$/, { timeout: 180_000 });
  await expect(record.getByRole('columnheader', { name: 'Funnel (found, chosen once found)' })).toBeVisible();
  const stored = (await (await page.request.get((await record.getByTestId('optimisation-json').getAttribute('href'))!)).json()) as {
    result: { select: { ranked: StoredRanked[] } };
  };
  expect(stored.result.select.ranked.length).toBeGreaterThan(1);
  for (const c of stored.result.select.ranked) {
    // every discovery × N of the template: all tools and BM25's top 5, at 0, 8, 32 and 117 distractors
    expect(c.sideEffects!.funnel!.map((f) => `${f.discovery} ${f.catalogSize}`).sort(), c.candidate).toEqual(
      ['all', 'bm25-top-5'].flatMap((d) => [0, 117, 32, 8].map((n) => `${d} ${n}`)),
    );
    await expect(record.locator(`tr[data-candidate="${c.candidate}"]`).getByTestId('funnel-pairs')).toHaveText(funnelText(c.sideEffects!.funnel!));
  }
  const md = await (await page.request.get((await record.getByTestId('optimisation-md').getAttribute('href'))!)).text();
  expect(md).toContain('| Funnel (found, chosen once found) |');
  await expectFits(page, 1440);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFits(page, 390);
});
