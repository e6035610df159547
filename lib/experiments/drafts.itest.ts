import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { createDraft, designerDestination, draftFromVersion, getDraft, listVersions, saveDraft, setArchived } from '../db/drafts';
import { checkDraft, freezeDraft } from './drafts';
import { getPriceTable, savePriceTable } from '../runner/price-table';
import { getExperiment, listExperiments } from '../db/experiments';
import { tinyExperiment } from '../testing/tiny-experiment';
import { DEFAULT_PRICE_TABLE } from '../design/cost';
import { SpecError } from '../schema/common';

afterAll(closeDb);

const experimentRows = async () => Number((await pool().query<{ n: string }>(`SELECT count(*) AS n FROM experiments`)).rows[0].n);

describe('designer drafts', () => {
  it('saves any content as you go, freezes a valid draft as v1, then edits from v1 into v2 leaving v1 unchanged', async () => {
    const draft = await createDraft('draft-itest', {});
    expect(draft.content).toEqual({ id: 'draft-itest' });
    await expect(createDraft('draft-itest', {})).rejects.toThrow(/already used/);
    await saveDraft('draft-itest', { ...tinyExperiment('ignored'), name: 'Draft' });
    expect((await getDraft('draft-itest'))!.content).toMatchObject({ id: 'draft-itest', name: 'Draft' });
    const v1 = await freezeDraft('draft-itest');
    expect(v1).toMatchObject({ id: 'draft-itest-v1', version: 1, created: true });
    expect(await getDraft('draft-itest')).toBeNull();

    const again = await draftFromVersion(v1.id);
    expect(again.baseVersion).toBe(1);
    const content = structuredClone(again.content) as ReturnType<typeof tinyExperiment>;
    content.studies[0].conditions[1].tools.invoice.en[0].description = 'Read-only: looks up one invoice by its id.';
    await saveDraft('draft-itest', content);
    expect((await draftFromVersion(v1.id)).content).toEqual(content); // the draft being edited, not a fresh copy
    const v2 = await freezeDraft('draft-itest');
    expect(v2).toMatchObject({ id: 'draft-itest-v2', version: 2 });
    expect((await getExperiment(v1.id))!.spec.studies[0].conditions[1].tools.invoice.en[0].description).toBe('Read-only: looks up an invoice.');
    expect((await listVersions('draft-itest')).map((v) => v.version)).toEqual([1, 2]);
  });

  it('a designer link leads to its draft, then — once saved — to the version it became; an unknown id leads nowhere', async () => {
    await createDraft('designer-link-itest', tinyExperiment('designer-link-itest'));
    expect((await designerDestination('designer-link-itest'))?.kind).toBe('draft');
    const v1 = await freezeDraft('designer-link-itest');
    expect(await designerDestination('designer-link-itest')).toEqual({ kind: 'version', experimentId: v1.id });
    await draftFromVersion(v1.id);
    await saveDraft('designer-link-itest', { ...tinyExperiment('designer-link-itest'), name: 'second' });
    const v2 = await freezeDraft('designer-link-itest');
    expect(v2.id).not.toBe(v1.id);
    expect(await designerDestination('designer-link-itest')).toEqual({ kind: 'version', experimentId: v2.id });
    expect(await designerDestination('designer-link-itest-never')).toBeNull();
  });

  it('an invalid draft names every field and cannot be frozen: no experiment row is written', async () => {
    const bad = tinyExperiment('x') as Record<string, any>;
    bad.replicates = 'two';
    bad.studies[0].conditions[0].baseline = false; // no baseline
    bad.studies[0].conditions[1].id = 'overlapping'; // duplicate condition id
    bad.studies[0].cases[0].checks[0].expected.tool = 'refund'; // a tool that does not exist
    bad.studies[0].cases.push({ ...bad.studies[0].cases[0], id: 'read-2', task: '' }); // no task text
    bad.locales = ['en', 'fr']; // fr: no system text
    await createDraft('invalid-draft-itest', bad);
    const { issues, plan } = checkDraft({ ...bad, id: 'invalid-draft-itest' }, DEFAULT_PRICE_TABLE);
    expect(plan).toBeNull();
    expect(issues.map((i) => i.path)).toContain('replicates');
    const before = await experimentRows();
    const refused = await freezeDraft('invalid-draft-itest').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SpecError);
    expect(await experimentRows()).toBe(before);
    expect(await getDraft('invalid-draft-itest')).not.toBeNull(); // nothing of the draft is lost either

    bad.replicates = 1; // with the types right, the semantic checks run
    await saveDraft('invalid-draft-itest', bad);
    const paths = checkDraft((await getDraft('invalid-draft-itest'))!.content, DEFAULT_PRICE_TABLE).issues.map((i) => `${i.path}: ${i.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^studies\.0\.conditions: exactly one condition must be the baseline/),
        expect.stringMatching(/^studies\.0\.conditions: duplicate condition id "overlapping"/),
        expect.stringMatching(/^studies\.0\.cases\.0\.checks\.0\.expected\.tool: "refund" is not a tool/),
        expect.stringMatching(/^studies\.0\.cases\.1\.task: /),
        expect.stringMatching(/^studies\.0\.protocol\.system\.fr: no system instruction/),
      ]),
    );
    await expect(freezeDraft('invalid-draft-itest')).rejects.toThrow(SpecError);
    expect(await experimentRows()).toBe(before);
  });

  it('archives an experiment out of the list without touching its versions; stores the price table', async () => {
    await createDraft('archive-itest', tinyExperiment('archive-itest'));
    const v1 = await freezeDraft('archive-itest');
    expect((await listExperiments()).some((e) => e.slug === 'archive-itest')).toBe(true);
    expect(await setArchived('archive-itest', true)).toBe(1);
    expect((await listExperiments()).some((e) => e.slug === 'archive-itest')).toBe(false);
    expect((await listExperiments({ archived: true })).map((e) => e.id)).toContain(v1.id);
    expect(await getExperiment(v1.id)).not.toBeNull();
    // the price table is one row for the whole database: other files of the suite store theirs
    await pool().query(`DELETE FROM price_tables`);
    expect(await getPriceTable()).toEqual(DEFAULT_PRICE_TABLE);
    const table = { currency: 'EUR', outputTokensPerRequest: 80, prices: [{ provider: 'openai', model: 'm', inputPerMTok: 1, outputPerMTok: 4 }] };
    expect(await savePriceTable(table)).toEqual(table);
    expect(await getPriceTable()).toEqual(table);
    await expect(savePriceTable({ prices: [{ provider: 'x', model: 'y', inputPerMTok: -1, outputPerMTok: 0 }] })).rejects.toThrow(SpecError);
  });
});
