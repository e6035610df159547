// The traffic the trace tests record: a real SDK talks to the loopback server (lib/testing/loopback-server.ts)
// through a short tool-using conversation, so that an instrumentation (or a request/response log) records
// what was sent and answered. The test then imports the recording and compares it with what the server
// received and answered (lib/traces/*.itest.ts).
import type OpenAI from 'openai';
import type { Script, ScriptRequest } from './loopback-server';

export const TRACE_SYSTEM = 'You help guests book restaurant tables.';
export const TRACE_USER = 'Find me a quiet Italian place in Lyon for four people tonight.';
export const TRACE_TOOL_RESULT = '{"restaurants":[{"id":"r-17","name":"Da Marco"}]}';

export const TRACE_TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'search_restaurants',
      description: 'Search restaurants by city and cuisine.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, cuisine: { type: 'string' }, party_size: { type: 'integer' } },
        required: ['city'],
      },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: 'book_table',
      description: 'Book a table at a restaurant.',
      parameters: { type: 'object', properties: { restaurant_id: { type: 'string' }, party_size: { type: 'integer' } }, required: ['restaurant_id'] },
    },
  },
];

/** One request of the traced application: the system text, a user's ask, the restaurant tools. */
export function askWithTools(client: OpenAI, ask: string) {
  return client.chat.completions.create({
    model: 'gpt-loopback',
    messages: [
      { role: 'system', content: TRACE_SYSTEM },
      { role: 'user', content: ask },
    ],
    tools: TRACE_TOOLS,
  });
}

export const SEARCH_ARGS = { city: 'Lyon', cuisine: 'italian', party_size: 4 };
export const BOOK_ARGS = { restaurant_id: 'r-17', party_size: 4 };

/** First request → search_restaurants; a request carrying its result → book_table; no tools → text. */
export const restaurantScript: Script = (req: ScriptRequest) => {
  const body = req.body as { messages?: { role: string }[]; tools?: unknown[] };
  if (!body.tools || body.tools.length === 0) return { kind: 'text', text: 'Da Marco is a quiet Italian place.' };
  if ((body.messages ?? []).some((m) => m.role === 'tool')) return { kind: 'toolCalls', calls: [{ id: 'call_book', name: 'book_table', arguments: BOOK_ARGS }] };
  return { kind: 'toolCalls', calls: [{ id: 'call_search', name: 'search_restaurants', arguments: SEARCH_ARGS }] };
};

/**
 * Three Chat Completions calls through the SDK: a call that offered tools and got search_restaurants, the
 * follow-up with its result that got book_table, and a call without tools. Returns what the SDK got back.
 */
export async function restaurantConversation(client: OpenAI) {
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    { role: 'system', content: TRACE_SYSTEM },
    { role: 'user', content: TRACE_USER },
  ];
  const first = await client.chat.completions.create({ model: 'gpt-loopback', messages, tools: TRACE_TOOLS });
  const firstMessage = first.choices[0].message;
  const second = await client.chat.completions.create({
    model: 'gpt-loopback',
    messages: [...messages, firstMessage, { role: 'tool', tool_call_id: firstMessage.tool_calls![0].id, content: TRACE_TOOL_RESULT }],
    tools: TRACE_TOOLS,
  });
  const third = await client.chat.completions.create({ model: 'gpt-loopback', messages: [{ role: 'user', content: 'Say hello.' }] });
  return { first, second, third };
}

/** What the two tool-offering calls must import as, read from the server's received bodies and the SDK's answers. */
export function expectedRestaurantCandidates(received: unknown[], answered: Awaited<ReturnType<typeof restaurantConversation>>) {
  const body = received[0] as { tools: typeof TRACE_TOOLS };
  const tools = body.tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
  const firstCall = answered.first.choices[0].message.tool_calls![0];
  const secondCall = answered.second.choices[0].message.tool_calls![0];
  const asCall = (c: typeof firstCall) => (c.type === 'function' ? { id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown } : null);
  return {
    tools,
    first: { conversation: [{ role: 'user', text: TRACE_USER }], calls: [asCall(firstCall)], model: answered.first.model },
    second: {
      conversation: [
        { role: 'user', text: TRACE_USER },
        { role: 'assistant', text: null, calls: [asCall(firstCall)] },
        { role: 'tool', text: TRACE_TOOL_RESULT, callId: firstCall.id },
      ],
      calls: [asCall(secondCall)],
    },
  };
}

/** One line of a request/response log: the body the SDK sent and the body it got (or the error it got). */
export interface ExchangeLine {
  request: unknown;
  response?: unknown;
  error?: string;
  model?: string;
}

/**
 * A fetch that passes every request through and logs the exchange, as an application's request/response log
 * would: the SDKs take it as their `fetch` option (Gemini's SDK calls the global fetch).
 */
export function recordingFetch(log: ExchangeLine[], inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const request = JSON.parse(String(init?.body ?? 'null')) as unknown;
    const text = await res.clone().text();
    const model = /\/models\/([^:/]+):/.exec(url)?.[1];
    log.push(res.ok ? { request, response: JSON.parse(text) as unknown, ...(model ? { model } : {}) } : { request, error: `HTTP ${res.status}: ${text}` });
    return res;
  };
}
