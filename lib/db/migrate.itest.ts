import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairKeyOf, trialKeyOf } from '../design/matrix';
import { env } from '../env';
import { dropDatabase, ensureDatabase, migrate } from './migrate';

// A migration that changes rows is tested on rows written before it: a database of its own is migrated up to
// the migration before, given trials the way the old writer wrote them (raw SQL, no order_index), then
// migrated to the end.

const ORDER_INDEX_MIGRATION = '20261201132000_trial_order_index';
const MIGRATIONS = path.resolve('prisma/migrations');

let url: string;
let before: string;

beforeAll(async () => {
  const u = new URL(env().DATABASE_URL);
  u.pathname = `${u.pathname}_pre_order_index`;
  url = u.toString();
  await ensureDatabase(url);
  // the migrations before the order index, as a directory of their own
  before = await mkdtemp(path.join(tmpdir(), 'tclab-migrations-'));
  for (const name of (await readdir(MIGRATIONS)).filter((n) => n < ORDER_INDEX_MIGRATION))
    await cp(path.join(MIGRATIONS, name), path.join(before, name), { recursive: true });
});

afterAll(async () => {
  if (url) await dropDatabase(url);
  if (before) await rm(before, { recursive: true, force: true });
});

describe('the order_index migration', () => {
  it('backfills every existing trial with the order index the readers parsed out of its pair key', async () => {
    const early = await migrate(url, before);
    expect(early.length).toBeGreaterThan(0);
    expect(early).not.toContain(ORDER_INDEX_MIGRATION);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`INSERT INTO experiments (id, slug, version, name, spec, spec_hash) VALUES ('e1', 'e', 1, 'e', '{}', 'h')`);
      await c.query(`INSERT INTO runs (id, experiment_id, provider, model, settings) VALUES ('r1', 'e1', 'simulated', 'm', '{}')`);
      // orders 0..11 (two digits too), two replicates, two conditions: the rows the old writer made
      const rows = [];
      for (let orderIndex = 0; orderIndex < 12; orderIndex++)
        for (const replicate of [1, 2])
          for (const condition of ['base', 'treat']) {
            const at = { study: 'selection', scenario: 'shop', locale: 'zh-TW', caseId: `case-${orderIndex % 3}`, orderIndex, replicate };
            rows.push({ ...at, condition, trialKey: trialKeyOf({ ...at, condition }), pairKey: pairKeyOf(at) });
          }
      for (const [i, t] of rows.entries())
        await c.query(
          `INSERT INTO trials (id, run_id, trial_key, pair_key, study, kind, scenario, locale, case_id, condition, "order", replicate, tool_set_ref)
           VALUES ($1, 'r1', $2, $3, $4, 'selection', $5, $6, $7, $8, '[]', $9, 'ref')`,
          [`t${i}`, t.trialKey, t.pairKey, t.study, t.scenario, t.locale, t.caseId, t.condition, t.replicate],
        );

      const applied = await migrate(url); // it and the migrations after it
      expect(applied[0]).toBe(ORDER_INDEX_MIGRATION);
      expect(applied.every((n) => n >= ORDER_INDEX_MIGRATION)).toBe(true);

      const after = await c.query<{ trial_key: string; order_index: number; old_parse: number }>(
        `SELECT trial_key, order_index, substring(split_part(pair_key, '|', 5) from 2)::int AS old_parse FROM trials ORDER BY id`,
      );
      expect(after.rows).toHaveLength(rows.length);
      for (const r of after.rows) expect(r.order_index).toBe(r.old_parse);
      expect(new Map(after.rows.map((r) => [r.trial_key, r.order_index]))).toEqual(new Map(rows.map((t) => [t.trialKey, t.orderIndex])));
      // and from now on the column is required: a writer that forgets it is refused
      await expect(
        c.query(
          `INSERT INTO trials (id, run_id, trial_key, pair_key, study, kind, scenario, locale, case_id, condition, "order", replicate, tool_set_ref)
           VALUES ('late', 'r1', 'k', 'p', 's', 'selection', 'shop', 'en', 'c', 'base', '[]', 1, 'ref')`,
        ),
      ).rejects.toThrow(/order_index/);
    } finally {
      await c.end();
    }
  });
});
