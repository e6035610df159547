import { z } from 'zod';
import { Id, SpecError } from '../schema/common';
import { getExperiment } from './experiments';
import { pool, utcTimestamp } from './client';

// The designer's drafts as rows: one editable, never-frozen state per experiment id (slug), saved as you go.
// A draft may be invalid; checking and freezing it are the use case's (lib/experiments/drafts.ts).

/** A draft's content is any JSON object (it is validated on check and on freeze, not on save). */
export const DraftContent = z.record(z.string(), z.unknown()).refine((c) => JSON.stringify(c).length <= 2_000_000, 'a draft holds at most 2 MB of JSON');
export type DraftContent = z.infer<typeof DraftContent>;

export interface Draft {
  slug: string;
  baseVersion: number | null;
  content: DraftContent;
  createdAt: Date;
  updatedAt: Date;
}

interface Row {
  slug: string;
  base_version: number | null;
  content: DraftContent;
  created_at: string;
  updated_at: string;
}
const COLUMNS = `slug, base_version, content, created_at::text AS created_at, updated_at::text AS updated_at`;
const toDraft = (r: Row): Draft => ({
  slug: r.slug,
  baseVersion: r.base_version,
  content: r.content,
  createdAt: utcTimestamp(r.created_at),
  updatedAt: utcTimestamp(r.updated_at),
});

function slugOf(slug: string): string {
  const r = Id.safeParse(slug);
  if (!r.success) throw new SpecError(`id: ${r.error.issues[0].message}`, [{ path: 'id', message: r.error.issues[0].message }]);
  return r.data;
}

export async function getDraft(slug: string): Promise<Draft | null> {
  const r = await pool().query<Row>(`SELECT ${COLUMNS} FROM experiment_drafts WHERE slug = $1`, [slug]);
  return r.rows[0] ? toDraft(r.rows[0]) : null;
}

export async function listDrafts(): Promise<Draft[]> {
  const r = await pool().query<Row>(`SELECT ${COLUMNS} FROM experiment_drafts ORDER BY updated_at DESC`);
  return r.rows.map(toDraft);
}

/** Whether an id is free for a new experiment: no version and no draft uses it. */
export async function idInUse(slug: string): Promise<boolean> {
  const r = await pool().query(`SELECT 1 FROM experiments WHERE slug = $1 UNION ALL SELECT 1 FROM experiment_drafts WHERE slug = $1 LIMIT 1`, [slug]);
  return (r.rowCount ?? 0) > 0;
}

/** A new draft under a new id (refused when the id is taken); the content's own id is set to it. */
export async function createDraft(slug: string, content: DraftContent): Promise<Draft> {
  const id = slugOf(slug);
  if (await idInUse(id)) throw new SpecError(`id: "${id}" is already used by an experiment or a draft`, [{ path: 'id', message: `"${id}" is already used` }]);
  // the draft limit's message (not a ZodError): picking too many large tools is bad input, named
  const parsed = DraftContent.safeParse({ ...content, id });
  if (!parsed.success) throw new SpecError(`draft: ${parsed.error.issues[0].message}`, [{ path: '(draft)', message: parsed.error.issues[0].message }]);
  const body = parsed.data;
  const r = await pool().query<Row>(`INSERT INTO experiment_drafts (slug, base_version, content) VALUES ($1, NULL, $2) RETURNING ${COLUMNS}`, [id, JSON.stringify(body)]);
  return toDraft(r.rows[0]);
}

/** The draft of a stored experiment: the one being edited, or a new one started from this version. */
export async function draftFromVersion(experimentId: string): Promise<Draft> {
  const exp = await getExperiment(experimentId);
  if (!exp) throw new SpecError(`experiment: no experiment "${experimentId}"`, [{ path: 'experiment', message: 'not found' }]);
  const r = await pool().query<Row>(
    `INSERT INTO experiment_drafts (slug, base_version, content) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING RETURNING ${COLUMNS}`,
    [exp.slug, exp.version, JSON.stringify(exp.spec)],
  );
  return r.rows[0] ? toDraft(r.rows[0]) : (await getDraft(exp.slug))!;
}

/** Save the draft as it is now (valid or not); its id stays the draft's. */
export async function saveDraft(slug: string, content: unknown): Promise<Draft> {
  const parsed = DraftContent.safeParse(content);
  if (!parsed.success) throw new SpecError(`draft: ${parsed.error.issues[0].message}`, [{ path: '(draft)', message: parsed.error.issues[0].message }]);
  const r = await pool().query<Row>(`UPDATE experiment_drafts SET content = $2, updated_at = now() WHERE slug = $1 RETURNING ${COLUMNS}`, [
    slug,
    JSON.stringify({ ...parsed.data, id: slug }),
  ]);
  if (!r.rows[0]) throw new SpecError(`draft: no draft "${slug}"`, [{ path: '(draft)', message: 'not found' }]);
  return toDraft(r.rows[0]);
}

export async function discardDraft(slug: string): Promise<void> {
  await pool().query(`DELETE FROM experiment_drafts WHERE slug = $1`, [slug]);
}

/**
 * Where a designer link leads: its draft; or, once the draft became a version (freezing removes it), the
 * newest stored version of that experiment; null when the id is neither (a 404).
 */
export async function designerDestination(slug: string): Promise<{ kind: 'draft'; draft: Draft } | { kind: 'version'; experimentId: string } | null> {
  const draft = await getDraft(slug);
  if (draft) return { kind: 'draft', draft };
  const latest = (await listVersions(slug)).at(-1);
  return latest ? { kind: 'version', experimentId: latest.id } : null;
}

// ── archive and versions ──────────────────────────────────────────────────────────────────────────────

/** Hide an experiment (every version) from the list, or show it again; its versions and runs stay. */
export async function setArchived(slug: string, archived: boolean): Promise<number> {
  const r = await pool().query(`UPDATE experiments SET archived_at = CASE WHEN $2 THEN now() ELSE NULL END WHERE slug = $1`, [slug, archived]);
  return r.rowCount ?? 0;
}

export interface VersionRow {
  id: string;
  version: number;
  name: string;
  specHash: string;
  createdAt: Date;
  runs: number;
}

export async function listVersions(slug: string): Promise<VersionRow[]> {
  const r = await pool().query<{ id: string; version: number; name: string; spec_hash: string; created_at: string; runs: string }>(
    `SELECT e.id, e.version, e.name, e.spec_hash, e.created_at::text AS created_at, (SELECT count(*) FROM runs r WHERE r.experiment_id = e.id) AS runs
       FROM experiments e WHERE e.slug = $1 ORDER BY e.version`,
    [slug],
  );
  return r.rows.map((x) => ({ id: x.id, version: x.version, name: x.name, specHash: x.spec_hash, createdAt: utcTimestamp(x.created_at), runs: Number(x.runs) }));
}

// ── the price table ─────────────────────────────────────────────────────────────────────────────────────

/** The stored price table as JSON (null: none saved); lib/experiments/drafts.ts getPriceTable reads it. */
export async function priceTableJson(): Promise<unknown> {
  const r = await pool().query<{ prices: unknown }>(`SELECT prices FROM price_tables WHERE id = 'default'`);
  return r.rows[0]?.prices ?? null;
}

/** Store the price table (already validated by the use case). */
export async function storePriceTable(prices: unknown): Promise<void> {
  await pool().query(`INSERT INTO price_tables (id, prices) VALUES ('default', $1) ON CONFLICT (id) DO UPDATE SET prices = EXCLUDED.prices, updated_at = now()`, [
    JSON.stringify(prices),
  ]);
}
