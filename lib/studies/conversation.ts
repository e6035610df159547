import { canonicalJson } from '../hash';
import type { Observation } from '../schema/observation';
import { GENERATED_CALL_ID, type HistoryStep, type ProviderAnswer, type ProviderRequest, type ProviderResult, type ProviderTransportError } from '../schema/request';
import type { Conversation, ConversationScore, StoredTurn } from './types';

// The turn loop of a conversation kind, pure: the engine (lib/runner) gives it the provider, the turns
// already stored and where to store new ones; the offline tests give it arrays. A trial → turns → attempts:
// a turn is one model answer; each send is one attempt; a transport error ends this pass (the engine retries
// it as another attempt of the same turn, never a new turn).

export interface ConverseOptions {
  conversation: Conversation;
  /** The trial's request without history. */
  request: ProviderRequest;
  /** Turns stored by earlier passes (a resumed trial), oldest first. Their calls are replayed, never re-sent. */
  stored: readonly StoredTurn[];
  /** The attempt number of this pass's first send. */
  firstAttemptN: number;
  /** Book the attempt number of a later send in this pass; null: the trial is no longer ours. */
  nextAttemptN(): Promise<number | null>;
  send(request: ProviderRequest, attemptN: number): Promise<ProviderResult>;
  /** Store a completed turn (with the final score when it ends the conversation); false: fenced out. */
  store(turn: StoredTurn, result: ProviderAnswer | null, final: ConversationScore | null): Promise<boolean>;
}

export type ConverseOutcome =
  | { kind: 'finished'; turns: StoredTurn[]; score: ConversationScore; result: ProviderAnswer | null }
  | { kind: 'transport_error'; result: ProviderTransportError; attemptN: number; turns: StoredTurn[] }
  | { kind: 'fenced' };

/** The history step a stored turn becomes in the next request. */
export function historyStep(t: StoredTurn): HistoryStep {
  return { text: t.observation.text, calls: t.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, rawArguments: c.rawArguments })), results: t.results };
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
    const result = await o.send({ ...o.request, history: turns.map(historyStep) }, attemptN);
    if (result.outcome !== 'ok') return { kind: 'transport_error', result, attemptN, turns };
    const calls = callsWithIds(result.observation, n);
    const observation: Observation = { ...result.observation, toolCalls: calls };
    const applied = calls.length > 0 ? conversation.apply(calls) : { results: [], evidence: [] };
    const turn: StoredTurn = { n, attemptN, observation, calls, results: applied.results, evidence: applied.evidence };
    turns.push(turn);
    if (ends(turn, conversation.maxTurns)) {
      const score = conversation.score(turns);
      return (await o.store(turn, result, score)) ? { kind: 'finished', turns, score, result } : { kind: 'fenced' };
    }
    if (!(await o.store(turn, result, null))) return { kind: 'fenced' };
    attemptN = await o.nextAttemptN();
  }
}
