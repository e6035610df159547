import { descriptionPairs, funnel, type DescriptionPair, type FunnelRow, type FunnelTrial } from '../analysis/funnel';
import { costAt, DEFAULT_PRICE_TABLE, type PriceRow } from '../design/cost';
import { sentWire } from '../design/catalog';
import { naturalDefinitions, resolveSent } from '../design/matrix';
import { checksFor, type ExperimentSpec } from '../schema/experiment';
import { iterateTrialRecords } from '../db/results';
import type { RunRow } from '../db/runs';
import { cachedJsonText } from '../db/result-cache';
import { canonicalJson, sha256 } from '../hash';

/**
 * The funnel of a run, per catalog study: rows, and each row's estimated tokens of the tools sent per request;
 * and for each baseline → treatment pair under the same discovery × N, stage 1 and stage 2 side by side.
 */
export interface RunFunnel {
  rows: (FunnelRow & { toolTokens: number })[];
  pairs: DescriptionPair[];
}

/** Whether the case card (as the condition reads it) needs a tool: a stated tool, or a read / write decision. */
function needsToolOf(spec: ExperimentSpec) {
  const memo = new Map<string, boolean>();
  return (study: string, caseId: string, condition: string) => {
    const key = `${study}\u0000${caseId}\u0000${condition}`;
    let v = memo.get(key);
    if (v === undefined) {
      const kase = spec.studies.find((s) => s.id === study)?.cases.find((c) => c.id === caseId);
      v = !!kase && checksFor(kase, condition).some((c) => !!c.expected.tool || c.expected.decision === 'read' || c.expected.decision === 'write');
      memo.set(key, v);
    }
    return v;
  };
}

/**
 * The visibility funnel of a run's catalog studies (empty when the experiment has none), for the run as loaded.
 * It reads every trial of the run, so a completed run's is stored (for the spec and the price it was computed
 * with) and read back.
 */
export async function runFunnel(run: Pick<RunRow, 'id' | 'provider' | 'model'>, spec: ExperimentSpec): Promise<RunFunnel> {
  if (!spec.studies.some((s) => s.catalog)) return { rows: [], pairs: [] };
  const price = DEFAULT_PRICE_TABLE.prices.find((p) => p.provider === run.provider && p.model === run.model) ?? null;
  return cachedJsonText([run.id], `funnel|${sha256(canonicalJson({ spec, price }))}`, () => computeRunFunnel(run.id, spec, price), { onlyCompleted: true });
}

async function computeRunFunnel(runId: string, spec: ExperimentSpec, price: PriceRow | null): Promise<RunFunnel> {
  const catalogStudies = new Set(spec.studies.filter((s) => s.catalog).map((s) => s.id));
  // the tokenizer (o200k's rank table, tens of MB) is loaded only when a funnel is computed, not by every
  // export and page that imports this module
  const { wireToolsCost } = await import('../design/tokens');
  const needsTool = needsToolOf(spec);
  const toolTokens = new Map<string, number>();
  const tokensByCell = new Map<string, number[]>();
  const trials: FunnelTrial[] = [];
  for await (const t of iterateTrialRecords(runId, 500, { bodies: false })) {
    if (!catalogStudies.has(t.study)) continue;
    const study = spec.studies.find((s) => s.id === t.study)!;
    const condition = study.conditions.find((c) => c.id === t.condition)!;
    let tokens = toolTokens.get(t.toolSetRef);
    if (tokens === undefined) {
      tokens = wireToolsCost(resolveSent(study, naturalDefinitions(spec, condition, t.scenario, t.locale), t.scenario, t.order).map(sentWire)).tokens;
      toolTokens.set(t.toolSetRef, tokens);
    }
    const cell = `${t.study}\u0000${t.discovery ?? ''}\u0000${t.catalogSize ?? ''}\u0000${t.condition}`;
    (tokensByCell.get(cell) ?? tokensByCell.set(cell, []).get(cell)!).push(tokens);
    const ok = t.attempts.filter((a) => a.outcome === 'ok');
    const last = ok[ok.length - 1];
    const input = last?.inputTokens ?? null;
    trials.push({
      study: t.study,
      condition: t.condition,
      baseline: condition.baseline,
      caseId: t.caseId,
      pairKey: t.pairKey,
      catalogSize: t.catalogSize,
      discovery: t.discovery,
      needsTool: needsTool(t.study, t.caseId, t.condition),
      checkpoints: t.checkpoints,
      status: t.status,
      inputTokens: input,
      costUsd: price && input !== null ? costAt(price, input, last?.outputTokens ?? 0) : null,
    });
  }
  const rows = funnel(trials).map((r) => {
    const xs = tokensByCell.get(`${r.study}\u0000${r.discovery ?? ''}\u0000${r.catalogSize ?? ''}\u0000${r.condition}`) ?? [];
    return { ...r, toolTokens: xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0 };
  });
  return { rows, pairs: descriptionPairs(rows) };
}

/** A funnel row as exported: per condition recall@k, selection given visibility, arguments, end result, tokens. */
export function exportFunnelRow(r: RunFunnel['rows'][number]) {
  const { stages, ...rest } = r;
  return { ...rest, recallAtK: stages.visible, selectedGivenVisible: stages.selected, argumentsGivenSelected: stages.arguments, result: stages.result };
}
