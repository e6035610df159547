import type { Markers } from '../schema/experiment';
import type { ModelAnswer, Observation } from '../schema/observation';
import type { AdapterResult, ProviderResult } from '../schema/request';
import { parseFinalText } from './markers';

// The one place the protocol's answer markers (CLARIFY / STOP / STATUS: <LABEL>) are read from a model's
// answer (docs/architecture.md › Answer markers). Adapters (lib/providers) return what the model answered —
// calls, text, refusal, malformed, finish reason, and `answerText`, the text the markers are read from — and
// know nothing of the experiment's markers; every path that turns an answer into the Observation scoring
// sees (a trial's turns in lib/studies/conversation.ts, live, batch or offline; a pre-check; the rewriter)
// goes through here.

/**
 * What the model answered → its Observation: the first marker and the status label, read
 * (docs/design.md#scoring-rules) from `answerText` — for OpenAI the content only, never its separate
 * refusal string; for Anthropic and Gemini their one text, refusal or not. `answerText` is dropped: the
 * Observation's fields are the stored ones, in their stored order.
 */
export function observeAnswer(answer: ModelAnswer, markers: Markers): Observation {
  const parsed = parseFinalText(answer.answerText, markers);
  return {
    toolCalls: answer.toolCalls,
    marker: parsed.marker,
    label: parsed.label,
    text: answer.text,
    refusal: answer.refusal,
    malformed: answer.malformed,
    finishReason: answer.finishReason,
  };
}

/** An adapter's result with its answer observed (observeAnswer); a transport error as it is. */
export function observeResult(result: AdapterResult, markers: Markers): ProviderResult {
  if (result.outcome !== 'ok') return result;
  const { answer, ...rest } = result;
  return { ...rest, observation: observeAnswer(answer, markers) };
}
