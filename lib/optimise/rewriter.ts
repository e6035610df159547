// Use case: a model proposes a rewrite of a study's descriptions (docs/optimise.md "A model's rewrite"). It is
// prompted with the baseline's definitions, the linter's findings on them, the *tune* split's cases and the trials
// of the baseline that failed there in the version's newest completed run — never a select or confirm case —
// and answers through one tool, `propose_descriptions`. Its rewrite becomes an ordinary condition of a new
// version of the experiment (variant kind `model:<provider>:<model>`), and that version declares the split the
// prompt was drawn from, so the loop that selects and confirms it uses the same sealed cases. The exchange is
// kept as received in the audit of the stored version.

import type { Actor } from '../schema/actor';
import { TEXT_MAX } from '../schema/common';
import type { Condition, ExperimentSpec, Study } from '../schema/experiment';
import { baselineOf } from '../schema/experiment';
import type { ProviderRequest, ProviderResult, WireTool } from '../schema/request';
import { RunSettings, type RunSettingsInput, type RunTarget } from '../schema/run';
import { getExperiment, type ExperimentRow } from '../db/experiments';
import { recordAudit } from '../db/audit';
import { listRuns } from '../db/runs';
import { iterateTrialRecords } from '../db/results';
import { getPriceTable } from '../runner/price-table';
import { priceOf } from '../runner/spend';
import { costAt, type PriceTable } from '../design/cost';
import { DEFAULT_SHARES, restrictToCases, splitStudy, SplitError, type StudySplit } from '../design/splits';
import { lintExperiment } from '../design/lint';
import { saveParsedExperiment } from '../experiments/versions';
import { parseSpecValue } from '../experiments/parse';
import { getProvider } from '../providers/registry';
import { baseUrlRefusal, baseUrlToFix } from '../providers/configured';
import { describeProviderFailure } from '../providers/precheck';
import { observeResult } from '../scoring/answer';
import { isSimulatedProvider } from '../providers/vendor-descriptors';
import type { SplitShares } from '../schema/optimisation';
import { OptimiseInputError } from './errors';

/** The one tool the rewriter answers with. */
export const PROPOSE_TOOL = 'propose_descriptions';

export interface RewriteInput {
  experimentId: string;
  study: string;
  /** The rewriter model. */
  target: RunTarget;
  /** The split the prompt is drawn from (default: the study's declared one, else 40/30/30 and seed 0). */
  shares?: SplitShares;
  seed?: number;
  /** Request settings besides provider and model (temperature, max output tokens, timeout…). */
  settings?: Omit<RunSettingsInput, 'provider' | 'model'>;
  actor: Actor;
}

/** The model answered, but not with a usable rewrite: why, and what it sent (nothing is stored). */
export class RewriteRefused extends Error {
  constructor(
    message: string,
    readonly exchange: ProviderResult | null,
  ) {
    super(message);
    this.name = 'RewriteRefused';
  }
}

const SYSTEM = [
  'You improve the descriptions of the tools an AI assistant is offered, so that it picks the right tool for each user request.',
  'You see the current definitions and example requests with what the right behaviour was. Rewrite the descriptions you can improve:',
  'say what the tool does and returns, when to use it rather than a similar tool, whether it changes stored data, and what its codes mean when the definitions say so.',
  'Never add a fact the definitions do not hold, never instruct the assistant, never name the example requests.',
  `Answer by calling ${PROPOSE_TOOL} once, with only the descriptions you change, each by its key.`,
].join(' ');

const PROPOSE: WireTool = {
  name: PROPOSE_TOOL,
  description: 'Propose new descriptions for some of the tools, each identified by the key given with its current definition.',
  parameters: {
    type: 'object',
    properties: {
      descriptions: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            key: { type: 'string', description: 'the key of the definition, as given' },
            description: { type: 'string', description: 'the new description' },
          },
          required: ['key', 'description'],
        },
      },
    },
    required: ['descriptions'],
  },
};

/** `scenario/locale/tool`: how the prompt names one definition of the baseline. */
const keyOf = (scenario: string, locale: string, tool: string) => `${scenario}/${locale}/${tool}`;

/** The split the rewrite is prompted from: the study's declared one, else the shares and seed given (else the defaults). */
export function rewriteSplit(study: Study, shares?: SplitShares, seed?: number): StudySplit {
  const declared = study.splits;
  if (
    declared &&
    ((shares && (shares.tune !== declared.tune || shares.select !== declared.select || shares.confirm !== declared.confirm)) ||
      (seed !== undefined && seed !== declared.seed))
  )
    throw new OptimiseInputError(
      'split',
      `study "${study.id}" declares its split (${declared.tune}/${declared.select}/${declared.confirm}, seed ${declared.seed}); a rewrite is prompted from that one`,
    );
  try {
    return splitStudy(study, declared ?? { seed: seed ?? 0, ...(shares ?? DEFAULT_SHARES) });
  } catch (e) {
    if (e instanceof SplitError) throw new OptimiseInputError('split', e.message);
    throw e;
  }
}

/**
 * The rewriter's request: the baseline's definitions (each with its key), the tune split's cases — the task
 * and what the case card expects — and the baseline's failed trials among them (what the model did, which
 * checks failed); nothing of the select or confirm split (failures of other cases are dropped here too).
 */
export function rewriteRequest(spec: ExperimentSpec, study: Study, split: StudySplit, failures: TuneFailures | null = null): ProviderRequest {
  const baseline = baselineOf(study);
  const tune = new Set(split.tune);
  // the linter's findings on the baseline, read with the tune cases alone (a rule such as no-task-verb reads
  // the tasks: linted on every case, its words could carry a select or confirm case into the prompt)
  const tuneOnly = restrictToCases(spec, study.id, split.tune);
  const keyByName = new Map(
    Object.entries(baseline.tools).flatMap(([scenario, byLocale]) =>
      Object.entries(byLocale).flatMap(([locale, defs]) => defs.map((d) => [`${scenario}/${locale}/${d.name}`, keyOf(scenario, locale, d.tool)] as const)),
    ),
  );
  const findings = lintExperiment(tuneOnly)
    .filter((f) => f.study === study.id && f.condition === baseline.id)
    .map((f) => ({ key: keyByName.get(`${f.scenario}/${f.locale}/${f.tool}`) ?? f.tool, rule: f.rule, finding: f.message }));
  const definitions = Object.entries(baseline.tools).flatMap(([scenario, byLocale]) =>
    Object.entries(byLocale).flatMap(([locale, defs]) =>
      defs.map((d) => ({ key: keyOf(scenario, locale, d.tool), name: d.name, description: d.description, parameters: d.parameters })),
    ),
  );
  const examples = study.cases
    .filter((c) => tune.has(c.id))
    .map((c) => ({ scenario: c.scenario, locale: c.locale, request: c.task, expected: c.checks.map((k) => ({ axis: k.axis, ...k.expected })) }));
  const task = [
    'Current tool definitions:',
    JSON.stringify(definitions, null, 2),
    '',
    `Example requests (${examples.length}) and the right behaviour:`,
    JSON.stringify(examples, null, 2),
    '',
    `What a description linter finds in the current definitions (${findings.length}):`,
    JSON.stringify(findings, null, 2),
    ...(failures && failures.trials.length > 0
      ? [
          '',
          `Where the current definitions failed on these example requests (${failures.trials.length}${failures.more > 0 ? ` shown, ${failures.more} more` : ''}; run ${failures.runId}, ${failures.model}):`,
          JSON.stringify(
            failures.trials.filter((f) => tune.has(f.caseId)).map(({ caseId: _case, ...f }) => f),
            null,
            2,
          ),
        ]
      : []),
  ].join('\n');
  return {
    callsRun: false,
    locale: study.cases.find((c) => tune.has(c.id))?.locale ?? study.cases[0]?.locale ?? 'en',
    system: SYSTEM,
    markers: { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' },
    labels: [],
    tools: [PROPOSE],
    task,
    history: [],
  };
}

/** At most this many failed trials go into the rewriter's prompt. */
export const MAX_PROMPT_FAILURES = 20;

/** The baseline's failed trials on tune cases, from one run of the version: what the model did and which checks failed. */
export interface TuneFailures {
  runId: string;
  model: string;
  trials: { caseId: string; request: string; modelCalled: string[]; modelWrote: string | null; failedChecks: string[] }[];
  /** Failed tune trials beyond MAX_PROMPT_FAILURES, left out of the prompt. */
  more: number;
}

/**
 * The tune split's failed trials of the baseline in the version's newest completed run (any target), or null
 * when it has none: read from the stored trials, filtered to tune cases before anything leaves this function.
 */
export async function tuneFailures(experimentId: string, study: Study, split: StudySplit): Promise<TuneFailures | null> {
  const run = (await listRuns(experimentId)).find((r) => r.status === 'completed' || r.status === 'completed_with_unresolved');
  if (!run) return null;
  const tune = new Set(split.tune);
  const tasks = new Map(study.cases.map((c) => [c.id, c.task]));
  const baseline = baselineOf(study).id;
  const trials: TuneFailures['trials'] = [];
  let more = 0;
  for await (const t of iterateTrialRecords(run.id, 500, { bodies: false })) {
    if (t.study !== study.id || t.condition !== baseline || t.status !== 'failed' || !tune.has(t.caseId)) continue;
    if (trials.length >= MAX_PROMPT_FAILURES) {
      more++;
      continue;
    }
    trials.push({
      caseId: t.caseId,
      request: tasks.get(t.caseId) ?? '',
      modelCalled: (t.observation?.toolCalls ?? []).map((c) => c.name),
      modelWrote: t.observation?.text ? t.observation.text.slice(0, 300) : null,
      failedChecks: t.verdicts.filter((v) => v.status === 'fail').map((v) => `${v.checkId}: ${v.reason}`.slice(0, 300)),
    });
  }
  return { runId: run.id, model: `${run.provider}:${run.model}`, trials, more };
}

/** The rewrite the model proposed, key → description; a RewriteRefused naming what is wrong with it. */
export function proposedDescriptions(study: Study, result: ProviderResult): Map<string, string> {
  if (result.outcome !== 'ok') throw new RewriteRefused(`the rewriter's request failed: ${result.error.message}`, result);
  const call = result.observation.toolCalls.find((c) => c.name === PROPOSE_TOOL);
  if (!call)
    throw new RewriteRefused(
      `the rewriter did not call ${PROPOSE_TOOL}${result.observation.text ? ` (it wrote: ${result.observation.text.slice(0, 200)})` : ''}`,
      result,
    );
  const list = (call.arguments as { descriptions?: unknown } | null)?.descriptions;
  if (!Array.isArray(list)) throw new RewriteRefused(`${PROPOSE_TOOL}: "descriptions" is not a list`, result);
  const baseline = baselineOf(study);
  const known = new Map<string, string>();
  for (const [scenario, byLocale] of Object.entries(baseline.tools))
    for (const [locale, defs] of Object.entries(byLocale)) for (const d of defs) known.set(keyOf(scenario, locale, d.tool), d.description);
  const out = new Map<string, string>();
  list.forEach((item: unknown, i) => {
    const { key, description } = (item ?? {}) as { key?: unknown; description?: unknown };
    if (typeof key !== 'string' || !known.has(key))
      throw new RewriteRefused(`${PROPOSE_TOOL}: descriptions[${i}].key ${JSON.stringify(key)} is not a key it was given`, result);
    if (typeof description !== 'string' || description.trim() === '' || description.length > TEXT_MAX.description)
      throw new RewriteRefused(`${PROPOSE_TOOL}: descriptions[${i}].description must be text of 1 to ${TEXT_MAX.description} characters`, result);
    if (description.trim() !== known.get(key)) out.set(key, description.trim());
  });
  if (out.size === 0) throw new RewriteRefused(`${PROPOSE_TOOL}: no description changed`, result);
  return out;
}

/** The baseline with the proposed descriptions, as a candidate condition of the study. */
export function rewriteCondition(study: Study, target: RunTarget, descriptions: Map<string, string>): Condition {
  const baseline = baselineOf(study);
  const taken = new Set(study.conditions.map((c) => c.id));
  const stem = `${baseline.id}-model`.slice(0, 70);
  let id = stem;
  for (let n = 2; taken.has(id); n++) id = `${stem}-${n}`;
  const tools: Condition['tools'] = {};
  for (const [scenario, byLocale] of Object.entries(baseline.tools)) {
    tools[scenario] = {};
    for (const [locale, defs] of Object.entries(byLocale))
      tools[scenario][locale] = defs.map((d) => ({ ...d, description: descriptions.get(keyOf(scenario, locale, d.tool)) ?? d.description }));
  }
  return {
    id,
    label: `${baseline.label} — rewritten by ${target.model}`.slice(0, TEXT_MAX.short),
    baseline: false,
    tools,
    variant: { kind: `model:${target.provider}:${target.model}`, of: baseline.id },
  };
}

/**
 * Asks the rewriter model once and stores its rewrite as a new version of the experiment (the condition added,
 * the split declared). Bad input throws an OptimiseInputError naming the field; an answer that is no usable
 * rewrite throws RewriteRefused; nothing is stored in either case.
 */
export async function proposeModelRewrite(input: RewriteInput): Promise<{ experiment: ExperimentRow; condition: Condition; split: StudySplit; spent: RewriteSpend }> {
  const source = await getExperiment(input.experimentId);
  if (!source) throw new OptimiseInputError('experimentId', `no experiment "${input.experimentId}"`);
  const study = source.spec.studies.find((s) => s.id === input.study);
  if (!study) throw new OptimiseInputError('study', `no study "${input.study}" in ${source.id} (its studies: ${source.spec.studies.map((s) => s.id).join(', ')})`);
  if (isSimulatedProvider(input.target.provider)) throw new OptimiseInputError('rewriter', 'a simulated model writes no descriptions: choose a language model');
  const split = rewriteSplit(study, input.shares, input.seed);
  if (split.tune.length === 0) throw new OptimiseInputError('split', 'the tune split is empty: nothing to prompt the rewriter with (give it a share)');
  const parsed = RunSettings.safeParse({ ...(input.settings ?? {}), provider: input.target.provider, model: input.target.model });
  if (!parsed.success) throw new OptimiseInputError('rewriter', parsed.error.issues.map((x) => `${x.path.join('.') || 'settings'}: ${x.message}`).join('; '));
  const settings = parsed.data;
  const provider = getProvider(settings.provider);
  const refusal = baseUrlRefusal(provider.descriptor, settings.baseUrl);
  if (refusal !== null) throw new OptimiseInputError('rewriter', `baseUrl: ${refusal}`);
  settings.baseUrl = baseUrlToFix(provider.descriptor, settings.baseUrl);

  const failures = await tuneFailures(source.id, study, split);
  const request = rewriteRequest(source.spec, study, split, failures);
  const result = observeResult(await provider.send(request, { settings }), request.markers);
  if (result.outcome !== 'ok')
    throw new RewriteRefused(`the rewriter's request failed: ${describeProviderFailure(result, settings.provider, { baseUrl: settings.baseUrl })}`, result);
  const spent = rewriteSpend(await getPriceTable(), settings.provider, settings.model, result.usage);
  const condition = rewriteCondition(study, input.target, proposedDescriptions(study, result));
  const spec: ExperimentSpec = {
    ...source.spec,
    studies: source.spec.studies.map((s) => (s.id === study.id ? { ...s, conditions: [...s.conditions, condition], splits: { seed: split.seed, ...split.shares } } : s)),
  };
  const checked = parseSpecValue(spec);
  // a description the spec cannot hold (a NUL, a lone surrogate, too long) is the answer's fault: refused, named
  if (!checked.ok)
    throw new RewriteRefused(`the rewrite is not a definition the lab can store: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, result);
  const stored = await saveParsedExperiment(checked.value, { template: source.template ?? undefined });
  await recordAudit(
    input.actor,
    'experiment.stored',
    { experimentId: stored.id },
    {
      version: stored.version,
      via: 'model rewrite',
      from: source.id,
      study: study.id,
      condition: condition.id,
      rewriter: `${input.target.provider}:${input.target.model}`,
      tuneCases: split.tune.length,
      tuneFailures: failures && { runId: failures.runId, shown: failures.trials.length, more: failures.more },
      spent,
      exchange: { request: result.request, response: result.response, httpStatus: result.httpStatus, latencyMs: result.latencyMs },
    },
  );
  return { experiment: stored, condition, split, spent };
}

/** What the rewriter's one request cost: one paid request, its tokens as the provider counted them, priced by the price table where it knows the model. */
export interface RewriteSpend {
  requests: 1;
  inputTokens: number | null;
  outputTokens: number | null;
  /** null: the price table has no row for the model, or the provider reported no usage. */
  cost: number | null;
  currency: string;
}

export function rewriteSpend(
  table: PriceTable,
  provider: string,
  model: string,
  usage: { inputTokens: number | null; outputTokens: number | null } | null,
): RewriteSpend {
  const row = priceOf(table, provider, model);
  const inputTokens = usage?.inputTokens ?? null;
  const outputTokens = usage?.outputTokens ?? null;
  const cost = row && inputTokens !== null && outputTokens !== null ? costAt(row, inputTokens, outputTokens) : null;
  return { requests: 1, inputTokens, outputTokens, cost, currency: table.currency };
}
