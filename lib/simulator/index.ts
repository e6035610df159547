import type { ProviderRequest } from '../schema/request';
import { decideInterpretation, type InterpretationTrace } from './interpret';
import { decideSelection, type SelectionTrace } from './select';
import { decideTask, type TaskTrace } from './task';

/**
 * The simulated models (docs/design.md#providers-and-the-simulated-models): deterministic, offline, no key — transparent heuristics, NOT
 * language models. They stand where a model's server stands: the simulated provider (lib/providers/simulated.ts) is the wire
 * that sends them a request in-process and returns their answer as an adapter does. They see only the provider-neutral request (task, tool definitions in
 * their order, protocol markers and labels, the transcript so far, and whether their calls are run); they never see
 * a case card, an expected answer or a study's kind, and import nothing that holds them (a rule of `npm run lint`).
 * What they are sent chooses the rule set that answers (rulesFor).
 *
 * - selection: lexical similarity picks a tool (ties go to the first listed), schema-guided extraction
 *   fills the arguments, CLARIFY only when the definition says to ask, STOP only when the definitions deny
 *   the task's action — see ./select.ts for the exact rules.
 * - interpretation: the result of the transcript's last call is read; status codes are mapped only when the
 *   definition gives their meanings; without them a stated positional guess — see ./interpret.ts.
 * - task: a conversation over the transcript so far — see ./task.ts.
 *
 * The response body is the simulator's whole answer including a `trace` (scores per tool, extraction
 * rules, the interpretation rule), so every verdict on it can be explained.
 */
export const SIMULATED_ENGINE = 'simulated-lexical-v1' as const;
/** The second simulated model: the same heuristic, except that among plausible tools the first listed wins. */
export const SIMULATED_POSITION_BIASED = 'simulated-position-biased-v1' as const;
/** The third: the lexical pick, unless a generic tool is offered and the pick's definition gives no checkable reason (./generic.ts). */
export const SIMULATED_GENERIC_PREFERRING = 'simulated-generic-preferring-v1' as const;
export type SimulatedEngine = typeof SIMULATED_ENGINE | typeof SIMULATED_POSITION_BIASED | typeof SIMULATED_GENERIC_PREFERRING;

/** The engine a model name selects: the position-biased or generic-preferring one by its id, the lexical one otherwise. */
export function simulatedEngineOf(model: string): SimulatedEngine {
  return model === SIMULATED_POSITION_BIASED || model === SIMULATED_GENERIC_PREFERRING ? model : SIMULATED_ENGINE;
}

const SELECTION_MODEL = {
  [SIMULATED_ENGINE]: 'lexical',
  [SIMULATED_POSITION_BIASED]: 'position-biased',
  [SIMULATED_GENERIC_PREFERRING]: 'generic-preferring',
} as const;

export interface SimulatedResponse {
  simulated: true;
  engine: SimulatedEngine;
  /** The rule set that answered (rulesFor), under the name its records have always carried. */
  kind: RuleSet;
  toolCalls: { name: string; arguments: Record<string, unknown> }[];
  text: string | null;
  label: string | null;
  trace: SelectionTrace | InterpretationTrace | TaskTrace;
}

type Answer = Pick<SimulatedResponse, 'toolCalls' | 'text' | 'label' | 'trace'>;

/** The simulator's three rule sets. */
export type RuleSet = 'selection' | 'interpretation' | 'task';

const RULES: Record<RuleSet, (request: ProviderRequest, engine: SimulatedEngine) => Answer> = {
  selection(request, engine) {
    const d = decideSelection(request, SELECTION_MODEL[engine]);
    return { toolCalls: d.call ? [d.call] : [], text: d.text, label: null, trace: d.trace };
  },
  interpretation(request) {
    const d = decideInterpretation(request);
    return { toolCalls: [], text: d.text, label: d.label, trace: d.trace };
  },
  task(request) {
    const t = decideTask(request);
    return { toolCalls: t.call ? [t.call] : [], text: t.text, label: null, trace: t.trace };
  },
};

/**
 * The rule set that answers a request, from what it is sent: a conversation whose calls are run (`callsRun`)
 * → the task rules; one answer after a transcript (a lookup already called, and its result) → the
 * interpretation rules; one answer to the task alone → the selection rules.
 */
export function rulesFor(request: ProviderRequest): RuleSet {
  if (request.callsRun) return 'task';
  return request.history.length > 0 ? 'interpretation' : 'selection';
}

/** The simulator's answer to one request: pure and synchronous. */
export function simulate(request: ProviderRequest, engine: SimulatedEngine = SIMULATED_ENGINE): SimulatedResponse {
  const rules = rulesFor(request);
  return { simulated: true, engine, kind: rules, ...RULES[rules](request, engine) };
}

/**
 * The request as the simulator stores it (its "raw request"): the neutral request under the name of the rule
 * set that answered it, in the form exports have always carried — an injected step of history as
 * `interpretation: {call, result}`, a conversation's turns as `history` (a pre-check, outside any
 * conversation, without it), a single answer's request without either.
 */
export function recordedRequest(request: ProviderRequest): unknown {
  const { locale, system, markers, labels, tools, task, history } = request;
  const base = { kind: rulesFor(request), locale, system, markers, labels, tools, task, ...(request.toolSearch && { toolSearch: request.toolSearch }) };
  const json = (record: object): unknown => JSON.parse(JSON.stringify(record));
  if (request.callsRun) {
    if (request.turn === undefined) return json(base);
    const steps = history.map((h) => ({
      text: h.text,
      calls: h.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, rawArguments: c.rawArguments })),
      results: h.results.map((r) => ({ id: r.id, name: r.name, result: r.result })),
    }));
    return json({ ...base, history: steps });
  }
  const step = history[history.length - 1];
  const call = step?.calls[0];
  if (!call) return json(base);
  return json({ ...base, interpretation: { call: { name: call.name, arguments: call.arguments }, result: step.results[0]?.result } });
}
