import { canonicalJson } from '../hash';
import type { Observation } from '../schema/observation';
import { GENERATED_CALL_ID, type AdapterResult, type HistoryStep, type ProviderAnswer, type ProviderRequest, type ProviderTransportError } from '../schema/request';
import { observeResult } from '../scoring/answer';
import type { Conversation, ConversationScore, StoredTurn } from './types';

// The turn loop of every trial, pure: the engine (lib/runner) gives it the provider, the turns already
// stored and where to store new ones; the offline tests give it arrays. A trial → turns → attempts: a turn
// is one model answer; each send is one attempt; a transport error ends this pass (the engine retries it as
// another attempt of the same turn, never a new turn). A single-answer kind is a conversation of one turn.
// Each answer's markers are read here, with the request's markers (lib/scoring/answer.ts), whatever sent it:
// the live engine, a batch's results, the offline runs.

export interface ConverseOptions {
  conversation: Conversation;
  /** The trial's request: the transcript before the model's first turn (a kind's injected steps, if any). */
  request: ProviderRequest;
  /** Turns stored by earlier passes (a resumed trial), oldest first. Their calls are replayed, never re-sent. */
  stored: readonly StoredTurn[];
  /** The attempt number of this pass's first send. */
  firstAttemptN: number;
  /** Book the attempt number of a later send in this pass; null: the trial is no longer ours. */
  nextAttemptN(): Promise<number | null>;
  /** Send the request of turn `turnN` as attempt `attemptN`: the adapter's result (its markers are read here). */
  send(request: ProviderRequest, attemptN: number, turnN: number): Promise<AdapterResult>;
  /** Store a completed turn (with the final score when it ends the conversation); false: fenced out. */
  store(turn: StoredTurn, result: ProviderAnswer | null, final: ConversationScore | null): Promise<boolean>;
}

export type ConverseOutcome =
  | { kind: 'finished'; turns: StoredTurn[]; score: ConversationScore; result: ProviderAnswer | null }
  | { kind: 'transport_error'; result: ProviderTransportError; attemptN: number; turns: StoredTurn[] }
  | { kind: 'fenced' };

/** The history step a stored turn becomes in the next request. */
export function historyStep(t: StoredTurn): HistoryStep {
  return {
    text: t.observation.text,
    calls: t.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, rawArguments: c.rawArguments })),
    results: t.results.map((r) => ({ id: r.id, name: r.name, result: r.result, isError: r.result.isError })),
  };
}

/** The answer's calls with wire ids: the provider's, or `tclab_<turn>_<i>` when it gave none (Gemini often does not). */
export function callsWithIds(obs: Observation, turnN: number): StoredTurn['calls'] {
  return obs.toolCalls.map((c, i) => ({ ...c, id: c.id ?? `${GENERATED_CALL_ID}${turnN}_${i + 1}` }));
}

const ends = (t: StoredTurn, maxTurns: number) => t.calls.length === 0 || t.n >= maxTurns;

export async function converse(o: ConverseOptions): Promise<ConverseOutcome> {
  const { conversation } = o;
  const turns: StoredTurn[] = [];
  // rebuild the back-end: the same calls in the same order give the same results (checked)
  for (const t of o.stored) {
    if (!conversation.apply) throw new Error(`turn ${t.n}: a conversation whose calls are the answer stores no turns`);
    const { results } = conversation.apply(t.calls);
    if (canonicalJson(results) !== canonicalJson(t.results))
      throw new Error(`turn ${t.n}: replaying its calls gave other results than those stored (the fixture is not deterministic)`);
    turns.push(t);
  }
  const last = turns[turns.length - 1];
  if (last && ends(last, conversation.maxTurns)) {
    // the final turn was stored but the trial not scored (the worker died in between): score it now
    const score = conversation.score(turns);
    return (await o.store(last, null, score)) ? { kind: 'finished', turns, score, result: null } : { kind: 'fenced' };
  }
  let attemptN: number | null = o.firstAttemptN;
  for (;;) {
    if (attemptN === null) return { kind: 'fenced' };
    const n = turns.length + 1;
    const request: ProviderRequest = { ...o.request, history: [...o.request.history, ...turns.map(historyStep)], turn: n };
    const result = observeResult(await o.send(request, attemptN, n), request.markers);
    if (result.outcome !== 'ok') return { kind: 'transport_error', result, attemptN, turns };
    const calls = callsWithIds(result.observation, n);
    // the ids pair calls with their results: an answer whose calls nothing runs is kept as it came
    const observation: Observation = conversation.apply ? { ...result.observation, toolCalls: calls } : result.observation;
    const applied = calls.length > 0 && conversation.apply ? conversation.apply(calls) : { results: [], evidence: [] };
    const turn: StoredTurn = { n, attemptN, observation, calls, results: applied.results, evidence: applied.evidence };
    if (result.visible) turn.visible = result.visible;
    turns.push(turn);
    if (ends(turn, conversation.maxTurns)) {
      const score = conversation.score(turns);
      return (await o.store(turn, result, score)) ? { kind: 'finished', turns, score, result } : { kind: 'fenced' };
    }
    if (!(await o.store(turn, result, null))) return { kind: 'fenced' };
    attemptN = await o.nextAttemptN();
  }
}
