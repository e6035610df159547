import type pg from 'pg';
import { pool, withTransaction } from './client';

// The rows a lab archive carries, and how they go back in (docs/archive.md). Every row is read as
// row_to_json of the whole row — every column, whatever columns a later migration adds — with the `json`
// columns (raw bodies, kept as their exact text) read as their text, so a line holds no raw newline and the
// text comes back byte for byte. Rows go back with json_to_recordset, typed by the target's own columns.

/** The archive's tables, in the order they are written and restored (a row's parents come first). */
export const ARCHIVED_TABLES = [
  'experiments',
  'tool_catalogs',
  'runs',
  'trials',
  'attempts',
  'turns',
  'observations',
  'verdicts',
  'reviews',
  'result_cache',
  'review_pairs',
  'provider_batches',
  'provider_batch_items',
  'audit_events',
  'optimisations',
] as const;
export type ArchivedTable = (typeof ARCHIVED_TABLES)[number];

/**
 * Tables an archive leaves out, and why: accounts and sessions are the instance's own, the designer's drafts
 * and price table are not part of a run's record (a run copies its prices), holders and rate limits are the
 * engine's live state, tool snapshots the designer's import history (a run's tools are in its spec and its
 * requests), trace imports and their candidates the designer's sources of new cases (a case taken from one is
 * in the experiment's spec), and review assignments name the instance's accounts (who is to review what here).
 */
export const UNARCHIVED_TABLES = [
  '_tclab_migrations',
  'users',
  'accounts',
  'sessions',
  'verifications',
  'rate_limits',
  'auth_secret',
  'holders',
  'experiment_drafts',
  'price_tables',
  'tool_snapshots',
  'trace_imports',
  'trace_candidates',
  'review_assignments',
  'stored_exports',
  'stored_export_chunks',
] as const;

/** $1: the runs' ids, $2: the experiments' ids. */
const SCOPE: Record<ArchivedTable, string> = {
  experiments: `id = ANY($2::text[])`,
  tool_catalogs: `id IN (SELECT catalog_id FROM attempts WHERE run_id = ANY($1::text[]) AND catalog_id IS NOT NULL)`,
  runs: `id = ANY($1::text[])`,
  trials: `run_id = ANY($1::text[])`,
  attempts: `run_id = ANY($1::text[])`,
  turns: `run_id = ANY($1::text[])`,
  observations: `trial_id IN (SELECT id FROM trials WHERE run_id = ANY($1::text[]))`,
  verdicts: `trial_id IN (SELECT id FROM trials WHERE run_id = ANY($1::text[]))`,
  reviews: `run_id = ANY($1::text[])`,
  result_cache: `run_id = ANY($1::text[])`,
  review_pairs: `run_id = ANY($1::text[])`,
  provider_batches: `run_id = ANY($1::text[])`,
  provider_batch_items: `batch_id IN (SELECT id FROM provider_batches WHERE run_id = ANY($1::text[]))`,
  audit_events: `run_id = ANY($1::text[]) OR (run_id IS NULL AND experiment_id = ANY($2::text[]))`,
  // an improve-descriptions record travels with its source version (its select and confirm versions and runs with it)
  optimisations: `experiment_id = ANY($2::text[])`,
};

export interface ColumnInfo {
  name: string;
  /** format_type: `jsonb`, `timestamp(3) with time zone`, … */
  type: string;
}

type Db = Pick<pg.PoolClient, 'query'>;

/** The columns of every table of the public schema, in their order. */
export async function tableColumns(db: Db = pool()): Promise<Map<string, ColumnInfo[]>> {
  const r = await db.query<{ table: string; name: string; type: string }>(
    `SELECT c.relname AS table, a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
  );
  const out = new Map<string, ColumnInfo[]>();
  for (const x of r.rows) out.set(x.table, [...(out.get(x.table) ?? []), { name: x.name, type: x.type }]);
  return out;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** What the given ids name: runs, and experiments (a run's own experiment included); ids that name neither. */
export async function archiveScope(ids: readonly string[]): Promise<{ runs: string[]; experiments: string[]; unknown: string[] }> {
  const r = await pool().query<{ id: string; run: boolean; exp: boolean }>(
    `SELECT x.id, EXISTS (SELECT 1 FROM runs WHERE id = x.id) AS run, EXISTS (SELECT 1 FROM experiments WHERE id = x.id) AS exp
       FROM unnest($1::text[]) AS x(id)`,
    [ids],
  );
  const unknown = r.rows.filter((x) => !x.run && !x.exp).map((x) => x.id);
  const namedRuns = r.rows.filter((x) => x.run).map((x) => x.id);
  // a named version brings the select and confirm versions of its improve-descriptions records, and their runs
  const derived = await pool().query<{ id: string }>(
    `SELECT DISTINCT x.id FROM optimisations o, unnest(ARRAY[o.select_experiment_id, o.confirm_experiment_id]) AS x(id)
      WHERE o.experiment_id = ANY($1) AND x.id IS NOT NULL`,
    [r.rows.filter((x) => x.exp).map((x) => x.id)],
  );
  const namedExps = [...r.rows.filter((x) => x.exp).map((x) => x.id), ...derived.rows.map((x) => x.id)];
  const runs = await pool().query<{ id: string; experiment_id: string }>(
    `SELECT id, experiment_id FROM runs WHERE id = ANY($1) OR experiment_id = ANY($2) ORDER BY created_at, id`,
    [namedRuns, namedExps],
  );
  const experiments = [...new Set([...namedExps, ...runs.rows.map((x) => x.experiment_id)])].sort();
  return { runs: runs.rows.map((x) => x.id), experiments, unknown };
}

/**
 * A consistent read of the archive's rows: one REPEATABLE READ, read-only transaction; `rows` yields a
 * table's rows as JSON lines, fetched `batch` at a time through a cursor (bounded memory at any size).
 */
export async function withArchiveSnapshot<T>(
  fn: (snap: { columns: Map<string, ColumnInfo[]>; rows: (table: ArchivedTable, runs: string[], experiments: string[]) => AsyncGenerator<string[]> }) => Promise<T>,
  batch = 2000,
): Promise<T> {
  return withTransaction(async (client) => {
    const columns = await tableColumns(client);
    let n = 0;
    async function* rows(table: ArchivedTable, runs: string[], experiments: string[]): AsyncGenerator<string[]> {
      const cols = columns.get(table);
      if (!cols) throw new Error(`archive: no table ${table}`);
      // json (not jsonb) columns as their text: exactly as stored, and no raw newline in the line
      const select = cols.map((c) => (c.type === 'json' ? `${ident(c.name)}::text AS ${ident(c.name)}` : ident(c.name))).join(', ');
      const cursor = `archive_${n++}`;
      await client.query(
        `DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT row_to_json(x)::text AS line FROM (SELECT ${select} FROM ${ident(table)} WHERE (${SCOPE[table]}) AND cardinality($1::text[]) >= 0 AND cardinality($2::text[]) >= 0 ORDER BY ctid) x`,
        [runs, experiments],
      );
      for (;;) {
        const r = await client.query<{ line: string }>(`FETCH ${batch} FROM ${cursor}`);
        if (r.rows.length === 0) break;
        yield r.rows.map((x) => x.line);
      }
      await client.query(`CLOSE ${cursor}`);
    }
    const out = await fn({ columns, rows });
    return out;
  }, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}

/** An archive's experiment as the manifest lists it: its id and content hash, slug and version. */
export interface ArchivedExperiment {
  id: string;
  specHash: string;
  slug: string;
  version: number;
}

export async function archivedExperiments(ids: readonly string[]): Promise<ArchivedExperiment[]> {
  const r = await pool().query<ArchivedExperiment>(`SELECT id, spec_hash AS "specHash", slug, version FROM experiments WHERE id = ANY($1) ORDER BY id`, [ids]);
  return r.rows;
}

/** The restore's one transaction: everything it writes, or nothing. */
export async function withRestoreTransaction<T>(fn: (tx: RestoreTx) => Promise<T>): Promise<T> {
  return withTransaction(async (client) => {
    const tx = new RestoreTx(client, await tableColumns(client));
    await tx.prepare();
    const out = await fn(tx);
    return out;
  });
}

/** A clash between an archive and the instance it is restored into: nothing is written. */
export class RestoreClash extends Error {
  constructor(readonly clashes: string[]) {
    super(`refused: ${clashes.join('; ')} — nothing was restored`);
    this.name = 'RestoreClash';
  }
}

export class RestoreTx {
  /** Experiments the archive brings that the instance did not have (the others are there, identical). */
  readonly newExperiments: string[] = [];
  constructor(
    private readonly client: pg.PoolClient,
    readonly columns: Map<string, ColumnInfo[]>,
  ) {}

  async prepare(): Promise<void> {
    // an archived catalog id → this instance's id of the same catalog (ids are the instance's own)
    await this.client.query(`CREATE TEMP TABLE archive_catalog_ids (old_id int PRIMARY KEY, new_id int NOT NULL) ON COMMIT DROP`);
  }

  /**
   * Refuses the restore when a run's id is taken, or an experiment's id or slug and version is taken by
   * another content (spec hash). An experiment already there with the same content is shared, not written.
   */
  async checkClashes(runs: readonly string[], experiments: readonly ArchivedExperiment[]): Promise<void> {
    const clashes: string[] = [];
    const taken = await this.client.query<{ id: string }>(`SELECT id FROM runs WHERE id = ANY($1) ORDER BY id`, [runs]);
    for (const x of taken.rows) clashes.push(`run ${x.id} is already in this instance`);
    for (const e of experiments) {
      const there = await this.client.query<{ id: string; spec_hash: string }>(`SELECT id, spec_hash FROM experiments WHERE id = $1 OR (slug = $2 AND version = $3)`, [
        e.id,
        e.slug,
        e.version,
      ]);
      if (there.rows.length === 0) {
        this.newExperiments.push(e.id);
        continue;
      }
      for (const x of there.rows) {
        if (x.id === e.id && x.spec_hash === e.specHash) continue;
        clashes.push(
          x.id === e.id
            ? `experiment ${e.id} is already in this instance with another content (spec hash ${x.spec_hash}, the archive's ${e.specHash})`
            : `experiment ${e.slug} v${e.version} is already in this instance as ${x.id} (the archive's is ${e.id})`,
        );
      }
    }
    if (clashes.length > 0) throw new RestoreClash(clashes);
  }

  /** Insert archived rows (JSON lines) of one table, each column typed by this instance's table. */
  async insert(table: ArchivedTable, lines: readonly string[], archivedColumns: readonly string[]): Promise<number> {
    if (lines.length === 0) return 0;
    const cols = this.columns.get(table);
    if (!cols) throw new Error(`restore: this instance has no table ${table}`);
    const byName = new Map(cols.map((c) => [c.name, c]));
    const unknown = archivedColumns.filter((c) => !byName.has(c));
    if (unknown.length > 0)
      throw new Error(
        `restore: the archive's ${table} has columns this instance does not know (${unknown.join(', ')}): restore into an instance of the same version or later`,
      );
    // an audit entry's id and a catalog's id are the instance's own: new ones are given
    const own = table === 'audit_events' || table === 'tool_catalogs' ? new Set(['id']) : new Set<string>();
    const present = archivedColumns.map((c) => byName.get(c)!).filter((c) => !own.has(c.name));
    const defs = archivedColumns.map((c) => `${ident(c)} ${byName.get(c)!.type === 'json' ? 'text' : byName.get(c)!.type}`).join(', ');
    const value = (c: ColumnInfo) => {
      if (table === 'attempts' && c.name === 'catalog_id') return `(SELECT new_id FROM archive_catalog_ids WHERE old_id = r.catalog_id)`;
      return c.type === 'json' ? `r.${ident(c.name)}::json` : `r.${ident(c.name)}`;
    };
    const target = present.map((c) => ident(c.name)).join(', ');
    const from = `json_to_recordset($1::json) AS r(${defs})`;
    const json = `[${lines.join(',')}]`;
    if (table === 'tool_catalogs') {
      // the same catalog (its ref is the sha256 of its text) is shared; a ref whose text differs is refused
      const differ = await this.client.query<{ ref: string }>(`SELECT r.ref FROM ${from} JOIN tool_catalogs c ON c.ref = r.ref WHERE c.body <> r.body`, [json]);
      if (differ.rows.length > 0) throw new RestoreClash(differ.rows.map((x) => `tool catalog ${x.ref} is already in this instance with another text`));
      await this.client.query(`INSERT INTO tool_catalogs (${target}) SELECT ${present.map(value).join(', ')} FROM ${from} ON CONFLICT (ref) DO NOTHING`, [json]);
      const mapped = await this.client.query(`INSERT INTO archive_catalog_ids (old_id, new_id) SELECT r.id, c.id FROM ${from} JOIN tool_catalogs c ON c.ref = r.ref`, [
        json,
      ]);
      return mapped.rowCount ?? 0;
    }
    if (table === 'optimisations') {
      // a record is never overwritten, and a look at a sealed split is numbered once
      const taken = await this.client.query<{ id: string; look: number | null; taken: boolean }>(
        `SELECT r.id, r.look, EXISTS (SELECT 1 FROM optimisations o WHERE o.id = r.id) AS taken FROM ${from}
          WHERE EXISTS (SELECT 1 FROM optimisations o WHERE o.id = r.id
                           OR (r.look IS NOT NULL AND o.experiment_id = r.experiment_id AND o.study_id = r.study_id AND o.sealed_hash = r.sealed_hash AND o.look = r.look))
          ORDER BY r.id`,
        [json],
      );
      if (taken.rows.length > 0)
        throw new RestoreClash(
          taken.rows.map((x) =>
            x.taken ? `optimisation ${x.id} is already in this instance` : `optimisation ${x.id}: look ${x.look} at its sealed split is already in this instance`,
          ),
        );
    }
    let where = '';
    if (table === 'experiments') where = ` WHERE r.id = ANY($2)`;
    if (table === 'audit_events') where = ` WHERE r.run_id IS NOT NULL OR r.experiment_id = ANY($2)`;
    const params: unknown[] = where ? [json, this.newExperiments] : [json];
    // in the archive's order, which is the rows' physical order where they were archived: a read whose order
    // is left to PostgreSQL (ties of an ORDER BY, a scan) meets them in the same order after the restore
    const r = await this.client.query(
      `INSERT INTO ${ident(table)} (${target}) SELECT ${present.map(value).join(', ')} FROM ${from}${where}${table === 'audit_events' ? ' ORDER BY r.id' : ''}`,
      params,
    );
    return r.rowCount ?? 0;
  }

  /** Run any statement of the transaction (the audit entry of the restore). */
  get db(): Db {
    return this.client;
  }
}
