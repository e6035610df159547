import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from './client';
import { getExperiment, listExperiments } from './experiments';
import { saveExperiment } from '../experiments/versions';
import { benchSpec } from '../testing/bench-spec';
import { SpecError } from '../schema/common';

// Experiments are frozen versions: changed content under the same id is the next version; content already
// stored (in any version) is that version, never a copy.

afterAll(closeDb);

describe('saveExperiment', () => {
  it('stores changed content as the next version and recognises any stored version', async () => {
    const a = { ...benchSpec(20), id: 'versions-itest' };
    const b = { ...a, name: 'Edited' };
    const v1 = await saveExperiment(a);
    expect(v1).toMatchObject({ id: 'versions-itest-v1', version: 1, created: true });
    expect(await saveExperiment(a)).toMatchObject({ id: 'versions-itest-v1', created: false });
    expect(await saveExperiment(b)).toMatchObject({ id: 'versions-itest-v2', version: 2, created: true });
    expect(await saveExperiment(a)).toMatchObject({ id: 'versions-itest-v1', created: false }); // not a v3
    expect((await getExperiment('versions-itest-v2'))!.spec.name).toBe('Edited');
    const listed = (await listExperiments()).filter((e) => e.slug === 'versions-itest');
    expect(listed.map((e) => [e.version, e.versions])).toEqual([
      [2, 2],
      [1, 2],
    ]);
  });

  it('refuses an invalid spec naming the field, storing nothing', async () => {
    const before = (await listExperiments()).length;
    const e = await saveExperiment({ ...benchSpec(20), id: 'versions-bad', locales: ['not a locale'] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SpecError);
    expect((e as SpecError).message).toContain('locales');
    expect((await listExperiments()).length).toBe(before);
  });
});
