import { costAt, type PriceRow } from '../design/cost';
import type { Choice } from './choices';
import type { TrialUsage } from '../schema/outcomes';
import type { StoredConfusion, StoredFunnelShift, StoredPerRequest, StoredStageShift } from '../schema/optimisation';
import { pairReading, type DescriptionPair, type PairedStage } from './funnel';

// What a candidate does besides its paired difference on the select split (docs/optimise.md "Select"): the new
// confusions — pairs the baseline got right that the candidate now sends to another tool it was offered (read
// from the same choices as the expected × chosen matrices) —, what a request costs under it and, in a catalog
// study, how it moves the funnel's two stages (found, chosen once found).

export type Confusion = StoredConfusion;
export type PerRequest = StoredPerRequest;

const pairOf = (c: Pick<Choice, 'study' | 'scenario' | 'locale' | 'caseId' | 'orderIndex' | 'replicate'>) =>
  `${c.study}\u0000${c.scenario}\u0000${c.locale}\u0000${c.caseId}\u0000${c.orderIndex}\u0000${c.replicate}`;

/**
 * The pairs where the baseline passed and `candidate` failed by calling a tool it was sent other than the one
 * the card expects (or calling one where the card expects CLARIFY, STOP or a label), grouped by expected →
 * chosen (names as the candidate sent them), most pairs first; each with the cases it happened in.
 */
export function newConfusions(baseline: string, candidate: string, choices: readonly Choice[]): Confusion[] {
  const baselinePassed = new Set(choices.filter((c) => c.condition === baseline && c.status === 'passed').map(pairOf));
  const groups = new Map<string, { expected: string; chosen: string; pairs: number; cases: Set<string> }>();
  for (const c of choices) {
    if (c.condition !== candidate || c.status !== 'failed' || c.position === null || c.chosen === c.expected) continue;
    if (!baselinePassed.has(pairOf(c))) continue;
    const expected = c.expected ?? '(nothing expected)';
    const key = `${expected}\u0000${c.chosen}`;
    const g = groups.get(key) ?? { expected, chosen: c.chosen, pairs: 0, cases: new Set<string>() };
    g.pairs += c.count;
    g.cases.add(c.caseId);
    groups.set(key, g);
  }
  return [...groups.values()]
    .map((g) => ({ expected: g.expected, chosen: g.chosen, pairs: g.pairs, cases: [...g.cases].sort() }))
    .sort((a, b) => b.pairs - a.pairs || a.expected.localeCompare(b.expected) || a.chosen.localeCompare(b.chosen));
}

const ANSWERED = new Set(['passed', 'failed', 'untested']);

/**
 * Tokens and cost per request of one condition: the tokens the provider reported over its answered trials,
 * divided by the model answers they hold (a conversation's every turn is a request); the cost at the price
 * row (null without one, or when no trial reported tokens).
 */
export function perRequest(condition: string, trials: readonly TrialUsage[], price: Pick<PriceRow, 'inputPerMTok' | 'outputPerMTok'> | null): PerRequest {
  let requests = 0;
  let input = 0;
  let output = 0;
  for (const t of trials) {
    if (t.condition !== condition || !ANSWERED.has(t.status) || t.inputTokens === null) continue;
    requests += Math.max(t.turns, 1);
    input += t.inputTokens;
    output += t.outputTokens ?? 0;
  }
  if (requests === 0) return { requests: 0, inputTokens: null, outputTokens: null, cost: null };
  const inputTokens = input / requests;
  const outputTokens = output / requests;
  return { requests, inputTokens, outputTokens, cost: price ? costAt(price, inputTokens, outputTokens) : null };
}

const MAX_CASES_NAMED = 5;

/** The new confusions in words, for a table cell: `none`, or each expected → chosen with its pairs and cases. */
export function confusionsText(cs: readonly Confusion[]): string {
  if (cs.length === 0) return 'none';
  const total = cs.reduce((a, c) => a + c.pairs, 0);
  const each = cs.map((c) => {
    const named = c.cases.slice(0, MAX_CASES_NAMED).join(', ') + (c.cases.length > MAX_CASES_NAMED ? ` +${c.cases.length - MAX_CASES_NAMED} more` : '');
    return `${c.expected} → ${c.chosen} ×${c.pairs} (${named})`;
  });
  return `${total} ${total === 1 ? 'pair' : 'pairs'}: ${each.join('; ')}`;
}

/** Tokens and cost per request in words: `not reported`, or `412 in / 18 out tokens · USD 0.93 per 1,000 requests`. */
export function perRequestText(p: PerRequest, currency: string | null | undefined): string {
  if (p.inputTokens === null) return 'not reported';
  const tokens = `${Math.round(p.inputTokens).toLocaleString('en')} in / ${Math.round(p.outputTokens ?? 0).toLocaleString('en')} out tokens`;
  if (p.cost === null || !currency) return tokens;
  const perThousand = p.cost * 1000;
  const amount = perThousand === 0 ? '0' : perThousand >= 0.1 ? perThousand.toFixed(2) : perThousand.toPrecision(2);
  return `${tokens} · ${currency} ${amount} per 1,000 requests`;
}

const stageShift = (s: PairedStage): StoredStageShift => ({
  improved: s.improved,
  same: s.same,
  regressed: s.regressed,
  pExact: s.difference.pairs > 0 ? s.mcnemar.pExact : null,
});

/** A candidate's funnel pairs against the baseline (the select run's description pairs whose treatment it is), in the funnel's order. */
export function candidateFunnel(pairs: readonly DescriptionPair[], candidate: string): StoredFunnelShift[] {
  return pairs
    .filter((p) => p.treatment === candidate)
    .map((p) => ({ discovery: p.discovery, catalogSize: p.catalogSize, visible: stageShift(p.visible), chosen: stageShift(p.chosen), reading: pairReading(p) }));
}

const stageText = (s: StoredStageShift) => `${s.improved} ↑ / ${s.regressed} ↓ of ${s.improved + s.same + s.regressed}`;

/** Whether any candidate has funnel pairs (a catalog study): the tables then show them in a column of their own. */
export function hasFunnel(ranked: readonly { sideEffects?: { funnel?: readonly StoredFunnelShift[] } }[]): boolean {
  return ranked.some((c) => (c.sideEffects?.funnel?.length ?? 0) > 0);
}

/**
 * A candidate's funnel in words, for a table cell: `—` outside a catalog study, else per discovery × N the pair's
 * reading and both stages' improved / regressed pairs (`all, N = 32: found more often — found 6 ↑ / 0 ↓ of 8, chosen 1 ↑ / 0 ↓ of 2`).
 */
export function funnelText(fs: readonly StoredFunnelShift[]): string {
  if (fs.length === 0) return '—';
  return fs
    .map((f) => {
      const cell = [f.discovery ?? 'all tools', f.catalogSize === null ? null : `N = ${f.catalogSize}`].filter(Boolean).join(', ');
      return `${cell}: ${f.reading} — found ${stageText(f.visible)}, chosen ${stageText(f.chosen)}`;
    })
    .join('; ');
}
