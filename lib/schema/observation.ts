import { z } from 'zod';
import { JsonObject } from './common';

export const ToolCall = z.object({
  /** The call's id on the wire (OpenAI tool_call_id, Gemini functionCall.id), when it has one. */
  id: z.string().optional(),
  name: z.string(),
  /** Parsed arguments; null when the model's argument text was not a JSON object. */
  arguments: JsonObject.nullable(),
  /** The argument text as the model produced it, when the wire format carries text. */
  rawArguments: z.string().optional(),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const Marker = z.enum(['CLARIFY', 'STOP']);
export type Marker = z.infer<typeof Marker>;

/** What the model did, parsed from its final answer. Model-side problems live here, not in transport errors. */
export const Observation = z.object({
  toolCalls: z.array(ToolCall),
  /** First protocol marker in the final text (CLARIFY / STOP), if any. */
  marker: Marker.nullable(),
  /** Label reported after `STATUS:` in the final text, upper-cased, if any. */
  label: z.string().nullable(),
  text: z.string().nullable(),
  /** The model refused or was blocked by a safety filter. */
  refusal: z.boolean().default(false),
  /** Why a call could not be used: `MALFORMED_FUNCTION_CALL`, `unparseable_arguments`, `unknown_tool:<name>`. */
  malformed: z.string().nullable().default(null),
  finishReason: z.string().nullable().default(null),
});
export type Observation = z.infer<typeof Observation>;

/**
 * What a model answered, as an adapter reads it off its wire (lib/providers): the Observation without the
 * protocol's marker and label, plus `answerText`, the text those are read from. Adapters do not read the
 * experiment's markers; scoring does, in one place (`observeAnswer`, lib/scoring/answer.ts; see
 * docs/architecture.md › Answer markers). `answerText` is not `text`: OpenAI sends a refusal as its own
 * string, shown as the answer's text when there is no content, but markers are read from the content only;
 * Anthropic and Gemini give one text, refusal or not. Never stored: the Observation is.
 */
export interface ModelAnswer extends Omit<Observation, 'marker' | 'label'> {
  /** The text the protocol's markers are read from (null: none). */
  answerText: string | null;
}

export function emptyObservation(text: string | null = null): Observation {
  return { toolCalls: [], marker: null, label: null, text, refusal: false, malformed: null, finishReason: null };
}
