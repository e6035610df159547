import type { ModelAnswer, ToolCall } from '../schema/observation';
import { TOOL_SEARCH_MECHANISMS, type AdapterResult, type ProviderRequest } from '../schema/request';
import {
  recordedRequest,
  simulate,
  simulatedEngineOf,
  SIMULATED_ENGINE,
  SIMULATED_GENERIC_PREFERRING,
  SIMULATED_POSITION_BIASED,
  type SimulatedResponse,
} from '../simulator';
import type { Provider, ProviderDescriptor, SendOptions } from './types';
import { splitDeferred, termSearch, visibleNames } from './tool-search';

// The simulated provider: the wire to the simulated models (lib/simulator), in-process, offline, no key. It
// stores the request as the models record it and returns their answer as any adapter does; what they answer
// is theirs (docs/design.md#providers-and-the-simulated-models).

/**
 * What the simulator answered, as an adapter returns it: it is read by scoring like any model's
 * (lib/scoring/answer.ts), from the text it wrote.
 */
export function answerOf(response: SimulatedResponse): ModelAnswer {
  const toolCalls: ToolCall[] = response.toolCalls.map((c) => ({
    name: c.name,
    arguments: { ...c.arguments },
    rawArguments: JSON.stringify(c.arguments),
  }));
  return {
    toolCalls,
    text: response.text,
    refusal: false,
    malformed: null,
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    answerText: response.text,
  };
}

export const simulatedDescriptor: ProviderDescriptor = {
  id: 'simulated',
  label: 'simulated — not a language model',
  simulated: true,
  keyVars: [],
  keyRequired: false,
  baseUrlVar: null,
  defaultBaseUrl: null,
  defaultModel: SIMULATED_ENGINE,
  models: [
    { id: SIMULATED_ENGINE, label: 'lexical similarity (a heuristic, not a language model)' },
    { id: SIMULATED_POSITION_BIASED, label: 'position-biased: prefers the first plausible tool listed (a heuristic, not a language model)' },
    {
      id: SIMULATED_GENERIC_PREFERRING,
      label: 'generic-preferring: takes a browser or search it knows over a specific tool that gives no checkable reason (a heuristic, not a language model)',
    },
  ],
  secretHeaders: [],
  secretParams: [],
  wire: null,
  errorShape: null,
  toolSearch: TOOL_SEARCH_MECHANISMS,
};

/**
 * A tool-search request as the simulator sees it: the non-deferred tools plus what a lexical search over the
 * deferred tools' names and descriptions returns for the task text (termSearch: distinct shared terms, ties
 * in the request's order, at most TOOL_SEARCH_LIMIT) — deterministic, whatever the mechanism named. It then
 * decides over those tools only, as if they were all it was sent.
 */
export function throughToolSearch(request: ProviderRequest): { request: ProviderRequest; visible: string[] | null } {
  if (!request.toolSearch) return { request, visible: null };
  const { loaded, deferred } = splitDeferred(request.tools, request.toolSearch);
  const found = termSearch(deferred, request.task);
  const visible = visibleNames(
    loaded,
    found.map((t) => t.name),
  );
  const byName = new Map(request.tools.map((t) => [t.name, t]));
  const { toolSearch: _omitted, ...rest } = request;
  return { request: { ...rest, tools: visible.map((n) => byName.get(n)!) }, visible };
}

export const simulatedProvider: Provider = {
  descriptor: simulatedDescriptor,
  async send(request: ProviderRequest, options: SendOptions): Promise<AdapterResult> {
    const neutral = recordedRequest(request);
    const searched = throughToolSearch(request);
    const response = simulate(searched.request, simulatedEngineOf(options.settings.model));
    return {
      ...(searched.visible && { visible: searched.visible }),
      request: neutral,
      response: JSON.parse(JSON.stringify(response)) as unknown,
      httpStatus: null,
      latencyMs: 0,
      usage: null,
      outcome: 'ok',
      answer: answerOf(response),
    };
  },
};
