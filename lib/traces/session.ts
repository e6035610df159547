// One import's bookkeeping between the importer and storage (docs/traces.md): redaction first, then
// duplicates dropped by hash, near-duplicates grouped (the reviewer sees a group once), an optional sample
// stratified by observed tool, and the report whose counts add up to the records read.
import { canonicalJson, sha256 } from '../hash';
import { unstorableText } from '../schema/common';
import { REFUSAL_REASONS, SKIP_REASONS, type ImportItem, type RefusalReason, type SkipReason, type TraceCandidate } from '../schema/trace-candidate';
import { Redactor, type RedactionCounts } from './redact';
import { FingerprintSet } from './fingerprints';
import { NearDuplicateIndex } from './near';

/** Two conversations over the same catalog at least this similar (1 − edit distance / length) are one group. */
export const NEAR_DUPLICATE_SIMILARITY = 0.9;
/** Group heads kept for comparison per catalog (the oldest are let go: memory stays bounded). */
const HEADS_PER_CATALOG = 2000;
/**
 * With a sample, the near-duplicates of a head wait for the draw with it: at most this many per group (the rest
 * are counted as not sampled). A log of one request asked a quarter of a million times over held every member
 * in memory (683 MB for 300 MB of log) and overflowed the stack when a group that large was taken.
 */
export const SAMPLED_MEMBERS_PER_GROUP = 100;
/** Refusals listed by place in the report (all are counted). */
const LISTED_REFUSALS = 200;

export interface StoredCandidate {
  candidate: TraceCandidate;
  /** SHA-256 of the redacted conversation, system instructions and catalog. */
  hash: string;
  /** The hash of the group's first candidate (itself when it heads a group). */
  groupHash: string;
  /** Stratum of the sample: the observed tools' names, or "(no call)". */
  stratum: string;
}

export interface ImportReport {
  /** Records read: lines of a log, spans of a trace (and lines that could not be read at all). */
  read: number;
  /** Candidates stored: heads of a group and members of a group. */
  imported: number;
  grouped: number;
  duplicate: number;
  notSampled: number;
  refused: Record<RefusalReason, number>;
  skipped: Record<SkipReason, number>;
  /** The first refusals, by place: which line or span, and why. */
  refusals: { reason: RefusalReason; where: string; detail: string }[];
  redactions: RedactionCounts;
  byCompleteness: { full: number; 'names-only': number; missing: number };
}

export interface SessionOptions {
  /** Candidates without a catalog are kept only when they can be mapped onto an existing scenario's tools. */
  catalogTarget: boolean;
  /** Keep at most this many group heads, stratified by observed tool (members go with their head). */
  sample?: number;
  redact?: string[];
  /** Seed of the sample's draw (reproducible). */
  seed?: number;
}

const zero = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function firstUnstorable(v: unknown): string | null {
  if (typeof v === 'string') return unstorableText(v);
  if (Array.isArray(v)) {
    for (const x of v) {
      const why = firstUnstorable(x);
      if (why) return why;
    }
    return null;
  }
  if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      const why = unstorableText(k) ?? firstUnstorable(x);
      if (why) return why;
    }
  return null;
}

const conversationText = (c: TraceCandidate) =>
  c.conversation
    .filter((m) => m.role === 'user')
    .map((m) => m.text ?? '')
    .join('\n');

export class ImportSession {
  readonly report: ImportReport;
  private readonly redactor: Redactor;
  private readonly seen = new FingerprintSet();
  private readonly heads = new Map<string, NearDuplicateIndex>();
  private readonly reservoirs = new Map<string, { seen: number; kept: StoredCandidate[] }>();
  private readonly members = new Map<string, StoredCandidate[]>();
  private readonly random: () => number;

  constructor(private readonly opts: SessionOptions) {
    this.redactor = new Redactor(opts.redact ?? []);
    this.random = mulberry32(opts.seed ?? 1);
    this.report = {
      read: 0,
      imported: 0,
      grouped: 0,
      duplicate: 0,
      notSampled: 0,
      refused: zero(REFUSAL_REASONS),
      skipped: zero(SKIP_REASONS),
      refusals: [],
      redactions: this.redactor.counts,
      byCompleteness: { full: 0, 'names-only': 0, missing: 0 },
    };
  }

  private refuse(reason: RefusalReason, where: string, detail: string) {
    this.report.refused[reason]++;
    if (this.report.refusals.length < LISTED_REFUSALS) this.report.refusals.push({ reason, where: this.redactor.text(where), detail: this.redactor.text(detail) });
  }

  /** One record read. Returns what to store now (nothing when sampling: see finish). */
  feed(item: ImportItem): StoredCandidate[] {
    this.report.read++;
    if (item.kind === 'skipped') {
      this.report.skipped[item.reason]++;
      return [];
    }
    if (item.kind === 'refused') {
      this.refuse(item.reason, item.where, item.detail);
      return [];
    }
    const c = this.redactor.deep(item.candidate);
    const place = c.provenance.spanId ? `span ${c.provenance.spanId} (line ${c.provenance.line})` : `line ${c.provenance.line}`;
    const unstorable = firstUnstorable(c);
    if (unstorable) {
      this.refuse('unparseable', place, `a text ${unstorable}: PostgreSQL cannot store it as JSON`);
      return [];
    }
    if (c.catalogCompleteness === 'missing' && !this.opts.catalogTarget) {
      this.refuse(
        'no-catalog',
        `${c.provenance.spanId ? `span ${c.provenance.spanId}` : `line ${c.provenance.line}`}`,
        'the trace holds no tool definitions: import into an existing experiment to map the calls onto its tools',
      );
      return [];
    }
    const hash = sha256(canonicalJson({ conversation: c.conversation, system: c.system, tools: c.tools }));
    if (!this.seen.add(hash)) {
      this.report.duplicate++;
      return [];
    }
    const catalogKey = c.tools
      .map((t) => t.name)
      .sort()
      .join('\u0000');
    const text = conversationText(c);
    let heads = this.heads.get(catalogKey);
    if (!heads) this.heads.set(catalogKey, (heads = new NearDuplicateIndex(NEAR_DUPLICATE_SIMILARITY, HEADS_PER_CATALOG)));
    const nearHash = heads.find(text);
    const near = nearHash === null ? null : { hash: nearHash };
    const stratum = c.observed.calls.length > 0 ? [...new Set(c.observed.calls.map((x) => x.name))].sort().join('+') : '(no call)';
    const stored: StoredCandidate = { candidate: c, hash, groupHash: near ? near.hash : hash, stratum };
    if (!near) heads.add(hash, text);
    if (this.opts.sample === undefined) return [this.count(stored)];
    if (near) {
      const list = this.members.get(near.hash);
      if (list && list.length < SAMPLED_MEMBERS_PER_GROUP) list.push(stored);
      else this.report.notSampled++;
      return [];
    }
    // Reservoir per stratum, each as large as the whole sample: the allocation happens in finish().
    const r = this.reservoirs.get(stratum) ?? { seen: 0, kept: [] };
    this.reservoirs.set(stratum, r);
    r.seen++;
    if (r.kept.length < this.opts.sample) {
      r.kept.push(stored);
      this.members.set(hash, []);
    } else {
      const j = Math.floor(this.random() * r.seen);
      if (j < this.opts.sample) {
        const out = r.kept[j];
        this.report.notSampled += 1 + (this.members.get(out.hash)?.length ?? 0);
        this.members.delete(out.hash);
        r.kept[j] = stored;
        this.members.set(hash, []);
      } else this.report.notSampled++;
    }
    return [];
  }

  private count(s: StoredCandidate): StoredCandidate {
    if (s.groupHash === s.hash) this.report.imported++;
    else this.report.grouped++;
    this.report.byCompleteness[s.candidate.catalogCompleteness]++;
    return s;
  }

  /** The sample, when one was asked for: heads allotted to strata in proportion to their size (largest remainder). */
  finish(): StoredCandidate[] {
    const n = this.opts.sample;
    if (n === undefined) return [];
    const strata = [...this.reservoirs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const total = strata.reduce((s, [, r]) => s + r.seen, 0);
    const quota = strata.map(([, r]) => Math.min(r.kept.length, Math.floor((n * r.seen) / Math.max(total, 1))));
    let left = Math.min(n, total) - quota.reduce((a, b) => a + b, 0);
    const order = strata.map((_, i) => i).sort((i, j) => (n * strata[j][1].seen) / total - quota[j] - ((n * strata[i][1].seen) / total - quota[i]));
    while (left > 0) {
      let moved = false;
      for (const i of order)
        if (left > 0 && quota[i] < strata[i][1].kept.length) {
          quota[i]++;
          left--;
          moved = true;
        }
      if (!moved) break;
    }
    const out: StoredCandidate[] = [];
    strata.forEach(([, r], i) => {
      // A reservoir that never filled holds the first arrivals in order: shuffle before taking the quota.
      for (let k = r.kept.length - 1; k > 0; k--) {
        const j = Math.floor(this.random() * (k + 1));
        [r.kept[k], r.kept[j]] = [r.kept[j], r.kept[k]];
      }
      r.kept.forEach((head, k) => {
        const members = this.members.get(head.hash) ?? [];
        if (k < quota[i]) {
          out.push(this.count(head));
          for (const m of members) out.push(this.count(m));
        } else this.report.notSampled += 1 + members.length;
      });
    });
    return out;
  }
}
