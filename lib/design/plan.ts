import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ExperimentSpec } from '../schema/experiment';
import { planTrials } from './planner';
import { catalogCosts, TOKENIZER, wireToolsCost, type CatalogCost } from './tokens';
import { DISCOVERY, sentWire } from './catalog';
import { lintExperiment } from './lint';
import { MAX_PERMUTATION_TOOLS, iterateTrials, naturalDefinitions, orderCount, resolveSent, type MatrixCount } from './matrix';
import { estimateCosts, type CostEstimate, type PriceTable } from './cost';

// The plan of an experiment before it runs — the designer's live preview and `tclab plan` print the same
// object: trials per study × condition × scenario × locale (× orders × replicates), pairs, formal
// requests, pre-checks, each catalog's tokens, the estimated cost per provider and model, and warnings.
// Counted arithmetically (cases × orders × replicates), never by listing the trials, so a preview of a
// large design stays instant and all-permutations past its limit is counted rather than refused.

export interface PlanCell {
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  cases: number;
  /** Candidate orders per case (the study's order policy over this catalog's tools). */
  orders: number;
  replicates: number;
  trials: number;
}

export interface ExperimentPlan {
  cells: PlanCell[];
  matrix: MatrixCount;
  tokenizer: string;
  catalogs: CatalogCost[];
  /** Studies with a distractor catalog: the tools' tokens per request and the cost at each N and discovery variant. */
  catalogScale: CatalogScaleRow[];
  /** Estimated prompt tokens of every formal request together (catalog + system + task + injected result); costs are for these requests. */
  inputTokens: number;
  costs: CostEstimate[];
  currency: string;
  warnings: string[];
}

export interface CatalogScaleRow {
  study: string;
  discovery: string;
  /** Distractors added (N). */
  size: number;
  condition: string;
  requests: number;
  /** Mean tools sent per request. */
  tools: number;
  /** Mean prompt tokens of the tools sent per request (o200k_base). */
  toolTokens: number;
  /** Estimated cost of these requests per price row (tools, task and system; the output allowance of the price table). */
  costs: CostEstimate[];
}

/** Per catalog study × discovery × N × condition: tokens of the tool list per request and the cost, from the expanded trials. */
function catalogScaleRows(spec: ExperimentSpec, prices: PriceTable): CatalogScaleRow[] {
  const rows = new Map<string, CatalogScaleRow & { sum: number; toolSum: number; extra: number }>();
  const memo = new Map<string, number>();
  for (const t of iterateTrials(spec)) {
    if (t.catalogSize === null || t.discovery === null) continue;
    const study = spec.studies.find((s) => s.id === t.study)!;
    const kase = study.cases.find((c) => c.id === t.caseId)!;
    const condition = study.conditions.find((c) => c.id === t.condition)!;
    const defs = naturalDefinitions(spec, condition, t.scenario, t.locale);
    let tokens = memo.get(t.toolSetRef);
    if (tokens === undefined) {
      tokens = wireToolsCost(resolveSent(study, defs, t.scenario, t.order).map(sentWire)).tokens;
      memo.set(t.toolSetRef, tokens);
    }
    const key = `${t.study}|${t.discovery}|${t.catalogSize}|${t.condition}`;
    const row = rows.get(key) ?? {
      study: t.study,
      discovery: t.discovery,
      size: t.catalogSize,
      condition: t.condition,
      requests: 0,
      tools: 0,
      toolTokens: 0,
      costs: [],
      sum: 0,
      toolSum: 0,
      extra: 0,
    };
    row.requests++;
    row.sum += tokens;
    row.toolSum += t.order.length;
    row.extra += countTokens(kase.task) + countTokens(study.protocol.system[t.locale] ?? '');
    rows.set(key, row);
  }
  return [...rows.values()].map(({ sum, toolSum, extra, ...r }) => ({
    ...r,
    tools: toolSum / r.requests,
    toolTokens: Math.round(sum / r.requests),
    costs: estimateCosts(prices, sum + extra, r.requests),
  }));
}

export function planExperiment(spec: ExperimentSpec, prices: PriceTable): ExperimentPlan {
  const catalogs = catalogCosts(spec);
  const catalogTokens = new Map(catalogs.map((c) => [`${c.study}|${c.condition}|${c.scenario}|${c.locale}`, c.tokens]));
  const warnings: string[] = [];
  const cells = new Map<string, PlanCell>();
  let inputTokens = 0;
  const studies: MatrixCount['studies'] = spec.studies.map((study) => {
    const perCondition = new Map(study.conditions.map((c) => [c.id, 0]));
    let pairs = 0;
    let tools = 0;
    const systemTokens = new Map(Object.entries(study.protocol.system).map(([l, text]) => [l, countTokens(text)]));
    for (const kase of study.cases) {
      const sent = naturalDefinitions(spec, study.conditions[0], kase.scenario, kase.locale).length;
      tools = Math.max(tools, sent);
      const orders = orderCount(sent, study.orderPolicy);
      // a catalog study counts its requests per catalog cell below (their tool lists differ by N and discovery)
      const cellsPerCase = study.catalog
        ? study.catalog.sizes.length * study.catalog.discovery.reduce((a, d) => a + (DISCOVERY[d.mechanism].ordersApply ? orders : 1), 0)
        : orders;
      const n = cellsPerCase * spec.replicates;
      pairs += n;
      const extra =
        countTokens(kase.task) +
        (systemTokens.get(kase.locale) ?? 0) +
        ('toolResult' in kase && kase.toolResult !== undefined ? countTokens(JSON.stringify(kase.toolResult)) : 0);
      for (const condition of study.conditions) {
        perCondition.set(condition.id, (perCondition.get(condition.id) ?? 0) + n);
        const key = `${study.id}|${condition.id}|${kase.scenario}|${kase.locale}`;
        const cell = cells.get(key) ?? {
          study: study.id,
          condition: condition.id,
          scenario: kase.scenario,
          locale: kase.locale,
          cases: 0,
          orders,
          replicates: spec.replicates,
          trials: 0,
        };
        cell.cases++;
        cell.trials += n;
        cells.set(key, cell);
        if (!study.catalog) inputTokens += n * ((catalogTokens.get(key) ?? 0) + extra);
        else inputTokens += spec.replicates * extra * cellsPerCase;
      }
    }
    if (study.orderPolicy === 'all-permutations' && tools > MAX_PERMUTATION_TOOLS)
      warnings.push(
        `${study.id}: all-permutations over ${tools} tools is ${orderCount(tools, 'all-permutations').toLocaleString('en')} orders per case; runs refuse more than ${MAX_PERMUTATION_TOOLS} tools — use rotations (${tools} orders)`,
      );
    if (study.orderPolicy === 'fixed' && tools > 1)
      warnings.push(`${study.id}: one fixed candidate order — position bias cannot be told apart from the definitions; reverse-swap or rotations measure it`);
    const conditions = study.conditions.map((c) => ({ condition: c.id, baseline: c.baseline, trials: perCondition.get(c.id) ?? 0 }));
    return { study: study.id, kind: study.kind, conditions, pairs, trials: conditions.reduce((a, c) => a + c.trials, 0) };
  });
  const formal = studies.reduce((a, s) => a + s.trials, 0);
  const catalogScale = catalogScaleRows(spec, prices);
  for (const r of catalogScale) inputTokens += r.toolTokens * r.requests;
  const matrix: MatrixCount = { studies, formal, prechecks: spec.prechecks.length };

  for (const row of planTrials(matrix, spec.replicates, 0.05))
    if (row.trials > 0 && row.trials < row.trialsNeeded)
      warnings.push(
        `${row.study}/${row.condition}: ${row.trials} trials; if all pass the failure rate is only bounded below ${(row.boundIfAllPass * 100).toFixed(1)}% (${row.trialsNeeded} clean trials bound it at 5%: ${row.replicatesNeeded} replicates)`,
      );
  const lintErrors = lintExperiment(spec).filter((f) => f.level === 'error');
  if (lintErrors.length) {
    const baselines = new Set(spec.studies.flatMap((s) => s.conditions.filter((c) => c.baseline).map((c) => `${s.id}/${c.id}`)));
    const outside = lintErrors.filter((f) => !baselines.has(`${f.study}/${f.condition}`));
    if (outside.length)
      warnings.push(
        `${outside.length} linter error${outside.length === 1 ? '' : 's'} in non-baseline conditions (${[...new Set(outside.map((f) => f.rule))].join(', ')})`,
      );
  }
  if (formal > 10_000) warnings.push(`${formal.toLocaleString('en')} formal requests: check the estimated cost and the provider's rate limits`);

  return {
    cells: [...cells.values()],
    matrix,
    tokenizer: TOKENIZER,
    catalogs,
    catalogScale,
    inputTokens,
    costs: estimateCosts(prices, inputTokens, formal),
    currency: prices.currency,
    warnings,
  };
}
