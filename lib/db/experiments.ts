import { ExperimentSpecShape, type ExperimentSpec } from '../schema/experiment';
import { formatIssues, zodIssues } from '../schema/common';
import { db, pool, utcTimestamp } from './client';

export interface ExperimentRow {
  id: string;
  slug: string;
  version: number;
  name: string;
  specHash: string;
  template: string | null;
  createdAt: Date;
}

/**
 * Store a parsed spec as a frozen experiment version (the use case lib/experiments/versions.ts parses and
 * hashes it). The same content (`specHash`) returns the existing version; changed content under the same id
 * becomes the next version — nothing stored is ever edited in place.
 */
export async function storeExperimentVersion(spec: ExperimentSpec, specHash: string, opts: { template?: string } = {}): Promise<ExperimentRow & { created: boolean }> {
  const prisma = await db();
  for (let tries = 0; tries < 3; tries++) {
    // the same content is the version already stored, whichever it is (an edited v2 must not make the
    // template's next seeding store the template again as v3)
    const same = await prisma.experiment.findFirst({ where: { slug: spec.id, specHash }, orderBy: { version: 'desc' } });
    if (same) return { ...same, created: false };
    const latest = await prisma.experiment.findFirst({ where: { slug: spec.id }, orderBy: { version: 'desc' } });
    const version = (latest?.version ?? 0) + 1;
    try {
      const row = await prisma.experiment.create({
        data: { id: `${spec.id}-v${version}`, slug: spec.id, version, name: spec.name, spec: spec as object, specHash, template: opts.template ?? null },
      });
      return { ...row, created: true };
    } catch (e) {
      // two savers raced for the same version: read again
      if ((e as { code?: string }).code !== 'P2002') throw e;
    }
  }
  throw new Error(`could not store experiment "${spec.id}": version conflict`);
}

/** Plain SQL rather than Prisma, like getRun: workers load experiments without Prisma's query engine. */
export async function getExperiment(id: string): Promise<(ExperimentRow & { spec: ExperimentSpec; frozen: boolean }) | null> {
  const r = await pool().query<{
    id: string;
    slug: string;
    version: number;
    name: string;
    spec: unknown;
    spec_hash: string;
    frozen: boolean;
    template: string | null;
    created_at: string;
  }>(`SELECT id, slug, version, name, spec, spec_hash, frozen, template, created_at::text AS created_at FROM experiments WHERE id = $1`, [id]);
  const x = r.rows[0];
  if (!x) return null;
  return {
    id: x.id,
    slug: x.slug,
    version: x.version,
    name: x.name,
    spec: readStoredSpec(x.spec, x.id),
    specHash: x.spec_hash,
    frozen: x.frozen,
    template: x.template,
    createdAt: utcTimestamp(x.created_at),
  };
}

/**
 * A stored spec, read back: its shape only (it was validated in full when stored). Throws when the row
 * does not parse, e.g. written by hand or by an older version; listings catch that per row.
 */
export function readStoredSpec(json: unknown, id = '(row)'): ExperimentSpec {
  const r = ExperimentSpecShape.safeParse(json);
  if (r.success) return r.data;
  throw new BrokenExperimentError(id, formatIssues(zodIssues(r.error).slice(0, 3)).slice(0, 300));
}

/** A stored experiment whose spec cannot be read (written by hand or by an older version). */
export class BrokenExperimentError extends Error {
  constructor(
    readonly experimentId: string,
    readonly reason: string,
  ) {
    super(`experiment ${experimentId}: its stored spec cannot be read: ${reason.split('\n')[0]}`);
    this.name = 'BrokenExperimentError';
  }
}

export type ListedExperiment = ExperimentRow & { runs: number; versions: number } & ({ spec: ExperimentSpec; broken: null } | { spec: null; broken: string });

/**
 * Every stored experiment, newest version of each first, with its run count and (parsed) spec. A row whose
 * spec cannot be read is listed as broken (with the reason) instead of failing the listing for everyone.
 */
export async function listExperiments(opts: { archived?: boolean } = {}): Promise<ListedExperiment[]> {
  // archived experiments are hidden from the list (their versions and runs stay); shown only when asked
  const rows = await (
    await db()
  ).experiment.findMany({
    where: opts.archived ? { archivedAt: { not: null } } : { archivedAt: null },
    orderBy: [{ slug: 'asc' }, { version: 'desc' }],
    include: { _count: { select: { runs: true } } },
  });
  const versions = new Map<string, number>();
  for (const r of rows) versions.set(r.slug, Math.max(versions.get(r.slug) ?? 0, r.version));
  return rows.map(({ _count, spec, archivedAt: _archived, ...r }) => {
    const base = { ...r, runs: _count.runs, versions: versions.get(r.slug) ?? r.version };
    try {
      return { ...base, spec: readStoredSpec(spec, r.id), broken: null };
    } catch (e) {
      return { ...base, spec: null, broken: e instanceof BrokenExperimentError ? e.reason : (e as Error).message.slice(0, 300) };
    }
  });
}
