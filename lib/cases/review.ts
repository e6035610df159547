// Review of trace candidates (docs/traces.md › Review): the observed call is not the expected call. The
// reviewer reads the conversation and what the model did, and writes the case card — a tool with arguments
// typed by its schema, or CLARIFY / STOP — or rejects the candidate with a reason. Accepted cases then join a
// new experiment version through the version-saving use case (lib/experiments/versions.ts).
import { recordAudit } from '../db/audit';
import { getCandidate, getTraceImport, listAcceptedCandidates, listCandidateHeads, saveCandidateReview, type CandidateRow } from '../db/trace-candidates';
import { saveExperiment } from '../experiments/versions';
import { getExperiment } from '../db/experiments';
import type { CaseInput } from '../schema/experiment';
import type { Actor } from '../schema/actor';
import type { CandidateTool, CaseCard } from '../schema/trace-candidate';

export class CandidateReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CandidateReviewError';
  }
}

export type { CaseCard };

export type ReviewInput = { accept: CaseCard } | { reject: string };

export interface QueueItem {
  seq: number;
  groupSize: number;
  status: CandidateRow['status'];
  firstUserText: string;
  observedTools: string[];
  catalogCompleteness: string;
}

export async function reviewQueue(importId: string, opts: { unreviewedOnly?: boolean } = {}) {
  const imp = await getTraceImport(importId);
  if (!imp) throw new CandidateReviewError(`import: no import "${importId}"`);
  const heads = await listCandidateHeads(importId);
  const items: QueueItem[] = heads.map((h) => {
    const c = h.candidate;
    return {
      seq: h.seq,
      groupSize: h.groupSize,
      status: h.status,
      firstUserText: c.conversation.find((m) => m.role === 'user')?.text ?? '',
      observedTools: c.observed.calls.map((x) => x.name),
      catalogCompleteness: h.catalogCompleteness,
    };
  });
  const reviewed = items.filter((i) => i.status !== 'unreviewed').length;
  return { import: imp, progress: { reviewed, total: items.length }, items: opts.unreviewedOnly ? items.filter((i) => i.status === 'unreviewed') : items };
}

const JSON_TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
};

/** Arguments checked against the tool's parameter schema: known properties, their types, the required ones. */
export function argumentProblems(tool: CandidateTool, args: Record<string, unknown>): string[] {
  const schema = (tool.parameters ?? {}) as { properties?: Record<string, { type?: string | string[] }>; required?: string[] };
  const props = schema.properties ?? {};
  const problems: string[] = [];
  for (const [k, v] of Object.entries(args)) {
    const p = props[k];
    if (!p) {
      problems.push(`arguments.${k}: ${tool.name} has no parameter "${k}"`);
      continue;
    }
    const types = p.type === undefined ? [] : Array.isArray(p.type) ? p.type : [p.type];
    if (types.length > 0 && !types.some((t) => JSON_TYPES[t]?.(v) ?? true)) problems.push(`arguments.${k}: expected ${types.join(' or ')}`);
  }
  for (const r of schema.required ?? []) if (!(r in args)) problems.push(`arguments.${r}: required by ${tool.name}`);
  return problems;
}

export async function reviewCandidate(importId: string, seq: number, input: ReviewInput, actor: Actor): Promise<void> {
  const row = await getCandidate(importId, seq);
  if (!row) throw new CandidateReviewError(`candidate: no candidate ${seq} in import "${importId}"`);
  if (row.hash !== row.groupHash) throw new CandidateReviewError(`candidate: ${seq} is reviewed with its group's first candidate`);
  if ('reject' in input) {
    const reason = input.reject.trim();
    if (reason === '') throw new CandidateReviewError('reason: a rejection needs a reason');
    await saveCandidateReview(importId, seq, { status: 'rejected', reason }, actor);
    return;
  }
  const card = input.accept;
  if (card.decision === 'call') {
    const c = row.candidate;
    const tool = c.tools.find((t) => t.name === card.tool);
    if (!tool) throw new CandidateReviewError(`tool: "${card.tool}" is not among the tools offered (${c.tools.map((t) => t.name).join(', ') || 'none'})`);
    if (card.effect !== 'read' && card.effect !== 'write') throw new CandidateReviewError('effect: expected read or write');
    const problems = argumentProblems(tool, card.arguments);
    if (problems.length > 0) throw new CandidateReviewError(problems.join('; '));
  }
  await saveCandidateReview(importId, seq, { status: 'accepted', card }, actor);
}

const safeId = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[^A-Za-z0-9]+/, '') || 'tool';

/**
 * A new experiment (its first version) from an import's accepted cases: one selection study whose baseline
 * sends the trace's catalog as it was offered, one scenario with those tools, one case per card.
 * Candidates whose catalog is not full cannot make the scenario's tools; they are listed, not added.
 */
export async function saveCasesAsExperiment(importId: string, input: { id: string; name: string }, actor: Actor) {
  const accepted = await listAcceptedCandidates(importId);
  if (accepted.length === 0) throw new CandidateReviewError('cases: no accepted candidate in this import');
  const usable = accepted.filter((r) => r.catalogCompleteness === 'full');
  const left = accepted.filter((r) => r.catalogCompleteness !== 'full').map((r) => r.seq);
  if (usable.length === 0) throw new CandidateReviewError(`cases: no accepted candidate has a full catalog (candidates ${left.join(', ')})`);
  const tools = new Map<string, CandidateTool>();
  const effects = new Map<string, 'read' | 'write'>();
  for (const r of usable) {
    for (const t of r.candidate.tools) if (!tools.has(t.name)) tools.set(t.name, t);
    const card = r.card;
    if (card.decision === 'call') effects.set(card.tool, card.effect);
  }
  const scenario = safeId(`traces-${importId.slice(0, 8)}`);
  const defs = [...tools.values()].map((t) => ({ tool: safeId(t.name), name: t.name, description: t.description ?? '', parameters: t.parameters }));
  const spec = {
    format: 'tclab.experiment/v1',
    id: input.id,
    name: input.name,
    locales: ['en'],
    scenarios: [{ id: scenario, title: `Traces ${importId.slice(0, 8)}`, tools: defs.map((d) => ({ id: d.tool, effect: effects.get(d.name) ?? 'read' })) }],
    studies: [
      {
        id: 'selection',
        kind: 'selection',
        title: 'Selection on traced requests',
        protocol: { system: { en: 'Use a tool, or answer CLARIFY: / STOP:.' } },
        // The catalog as the trace offered it (the baseline) against the same tools with their descriptions
        // left out: whether the descriptions carry the decision on the requests users really sent.
        conditions: [
          { id: 'observed', label: 'As offered in the trace', baseline: true, tools: { [scenario]: { en: defs } } },
          { id: 'no-descriptions', label: 'Descriptions left out', tools: { [scenario]: { en: defs.map((d) => ({ ...d, description: '' })) } } },
        ],
        cases: usable.map((r) => {
          const c = r.candidate;
          const card = r.card;
          const task = c.conversation
            .filter((m) => m.role === 'user' && m.text)
            .map((m) => m.text)
            .join('\n\n');
          const expected =
            card.decision === 'call'
              ? { decision: card.effect, tool: safeId(card.tool), call_count: 1, ...(Object.keys(card.arguments).length > 0 ? { arguments: card.arguments } : {}) }
              : { decision: card.decision, call_count: 0 };
          return { id: `trace-${r.seq}`, scenario, locale: 'en', task, checks: [{ id: 'tool-choice', axis: 'task_fit', expected }] };
        }),
      },
    ],
  };
  const saved = await saveExperiment(spec);
  await recordAudit(actor, 'candidates.joined', { experimentId: saved.id }, { importId, cases: usable.map((r) => r.seq), notAdded: left });
  return { experiment: saved, added: usable.map((r) => r.seq), notAdded: left };
}

/** Why an accepted card did not join an existing study (listed, never dropped silently). */
export interface NotJoined {
  seq: number;
  reason: string;
}

/**
 * The accepted cases of an import join a study of an existing experiment as its next version. The trace's tools
 * are mapped onto one of the study's scenarios by name (the scenario whose baseline definitions name the most
 * of the tools the accepted candidates were offered, or the one given): a card's tool becomes that scenario's
 * tool, its decision the tool's declared effect. A card whose tool the scenario does not name, or whose
 * arguments name a parameter its definition lacks, is listed with the reason and not added; so is a card whose
 * task the study already asks in that scenario (the same import joined before, or the experiment saved from
 * it). Nothing is saved when no card can join.
 */
export async function joinCasesToExperiment(importId: string, input: { experimentId: string; study: string; scenario?: string | null }, actor: Actor) {
  const exp = await getExperiment(input.experimentId);
  if (!exp) throw new CandidateReviewError(`experiment: no experiment "${input.experimentId}"`);
  const study = exp.spec.studies.find((s) => s.id === input.study);
  if (!study) throw new CandidateReviewError(`study: no study "${input.study}" in ${exp.id} (its studies: ${exp.spec.studies.map((s) => s.id).join(', ')})`);
  const accepted = await listAcceptedCandidates(importId);
  if (accepted.length === 0) throw new CandidateReviewError('cases: no accepted candidate in this import');
  const baseline = study.conditions.find((c) => c.baseline) ?? study.conditions[0];
  const locale = exp.spec.locales[0];
  // per scenario of the study: the baseline's definitions by the name a model sees
  const byScenario = new Map(
    Object.entries(baseline.tools).map(([scenario, byLocale]) => [scenario, new Map((byLocale[locale] ?? []).map((d) => [d.name, d]))] as const),
  );
  if (input.scenario && !byScenario.has(input.scenario))
    throw new CandidateReviewError(`scenario: study ${study.id} has no tools for scenario "${input.scenario}" (its scenarios: ${[...byScenario.keys()].join(', ')})`);
  const offered = new Set(accepted.flatMap((r) => r.candidate.tools.map((t) => t.name)));
  const covered = (s: string) => [...offered].filter((n) => byScenario.get(s)!.has(n)).length;
  const scenario = input.scenario ?? [...byScenario.keys()].sort((a, b) => covered(b) - covered(a) || a.localeCompare(b))[0];
  if (scenario === undefined) throw new CandidateReviewError(`scenario: study ${study.id} sends no tools in ${locale}`);
  const defs = byScenario.get(scenario)!;
  const effects = new Map((exp.spec.scenarios.find((s) => s.id === scenario)?.tools ?? []).map((t) => [t.id, t.effect]));
  const taken = new Set(study.cases.map((c) => c.id));
  const tasks = new Map(study.cases.map((c) => [`${c.scenario}\n${c.task}`, c.id]));
  const notJoined: NotJoined[] = [];
  const cases: CaseInput[] = [];
  for (const r of accepted) {
    const c = r.candidate;
    const card = r.card;
    const id = `trace-${importId.slice(0, 8)}-${r.seq}`;
    const task = c.conversation
      .filter((m) => m.role === 'user' && m.text)
      .map((m) => m.text)
      .join('\n\n');
    const same = tasks.get(`${scenario}\n${task}`) ?? (taken.has(id) ? id : undefined);
    if (same !== undefined) {
      notJoined.push({ seq: r.seq, reason: `a case with the same task is already in study ${study.id} (${same})` });
      continue;
    }
    let expected: CaseInput['checks'][number]['expected'];
    if (card.decision === 'call') {
      const def = defs.get(card.tool);
      if (!def) {
        notJoined.push({ seq: r.seq, reason: `scenario ${scenario} has no tool named "${card.tool}"` });
        continue;
      }
      const props = Object.keys(((def.parameters ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
      const unknown = Object.keys(card.arguments).filter((k) => !props.includes(k));
      if (unknown.length > 0) {
        notJoined.push({ seq: r.seq, reason: `${card.tool} in scenario ${scenario} has no parameter ${unknown.map((k) => `"${k}"`).join(', ')}` });
        continue;
      }
      const effect = effects.get(def.tool) ?? card.effect;
      expected = { decision: effect, tool: def.tool, call_count: 1, ...(Object.keys(card.arguments).length > 0 ? { arguments: card.arguments } : {}) };
    } else expected = { decision: card.decision, call_count: 0 };
    tasks.set(`${scenario}\n${task}`, id);
    cases.push({ id, scenario, locale, task, checks: [{ id: 'tool-choice', axis: 'task_fit', expected }] });
  }
  if (cases.length === 0)
    throw new CandidateReviewError(`cases: no accepted card can join study ${study.id}: ${notJoined.map((n) => `${n.seq}: ${n.reason}`).join('; ')}`);
  const spec = { ...exp.spec, studies: exp.spec.studies.map((s) => (s.id === study.id ? { ...s, cases: [...s.cases, ...cases] } : s)) };
  const unmapped = [...offered].filter((n) => !defs.has(n)).sort();
  const saved = await saveExperiment(spec);
  await recordAudit(
    actor,
    'candidates.joined',
    { experimentId: saved.id },
    { importId, from: exp.id, study: study.id, scenario, cases: cases.map((k) => k.id), notJoined, unmapped },
  );
  return { experiment: saved, scenario, added: cases.map((k) => k.id), notJoined, unmapped };
}
