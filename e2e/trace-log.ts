import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { startLoopbackServer } from '../lib/testing/loopback-server';
import { recordingFetch, restaurantConversation, restaurantScript, TRACE_TOOLS, type ExchangeLine } from '../lib/testing/trace-traffic';

/** A user message with personal data: the import redacts it before anything is stored. */
export const PERSONAL_TEXT = 'Book a table for two at Da Marco for anna.berg@example.com tonight.';
export const PERSONAL_EMAIL = 'anna.berg@example.com';
/** A third request, of its own: a question no tool of the catalog answers. */
export const OPENING_HOURS_TEXT = 'When does Da Marco open on Sundays?';

/**
 * A request/response log (`openai-log`) as an application writes it: the official OpenAI SDK talks to the
 * loopback server through a fetch that logs every exchange — the restaurant conversation (two calls that
 * offered tools, one that offered none), one more call whose user message holds an e-mail address, and one
 * asking what no tool answers.
 */
export async function recordOpenAiLog(): Promise<string> {
  const server = await startLoopbackServer({ script: restaurantScript });
  const log: ExchangeLine[] = [];
  try {
    const client = new OpenAI({ apiKey: 'sk-e2e-traces', baseURL: server.openaiBaseUrl, fetch: recordingFetch(log), maxRetries: 0 });
    await restaurantConversation(client);
    await client.chat.completions.create({ model: 'gpt-loopback', messages: [{ role: 'user', content: PERSONAL_TEXT }], tools: TRACE_TOOLS });
    await client.chat.completions.create({ model: 'gpt-loopback', messages: [{ role: 'user', content: OPENING_HOURS_TEXT }], tools: TRACE_TOOLS });
  } finally {
    await server.close();
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'tclab-e2e-traces-'));
  const file = path.join(dir, 'chat-log.jsonl');
  await writeFile(file, log.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}
