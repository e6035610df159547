import type { Command } from 'commander';
import { RunSettings } from '../../lib/schema/run';
import { formatZodError } from '../../lib/schema/common';
import { DESCRIPTORS, isProviderId, PROVIDER_IDS } from '../../lib/providers/registry';
import { UsageError } from '../errors';

export interface SettingsOptions {
  provider?: string;
  model?: string;
  temperature?: string;
  maxOutputTokens?: string;
  seed?: string;
  baseUrl?: string;
  concurrency?: string;
  rpm?: string;
  maxAttempts?: string;
  timeoutMs?: string;
  retryBaseMs?: string;
}

export function settingsOptions(cmd: Command): Command {
  return cmd
    .option('--provider <id>', providerHelp(), 'simulated')
    .option('--model <name>', 'model name (default: the provider’s default)')
    .option('--temperature <t>', 'sampling temperature')
    .option('--max-output-tokens <n>', 'maximum output tokens')
    .option('--seed <n>', 'seed, where the API has one')
    .option('--base-url <url>', "where the provider's requests go: only its configured base URL (e.g. OPENAI_BASE_URL) or one listed in TCLAB_ALLOWED_BASE_URLS")
    .option('--concurrency <n>', 'requests in flight for this run, across all workers')
    .option('--rpm <n>', 'requests per minute for this run')
    .option('--max-attempts <n>', 'attempts per trial before it is unresolved')
    .option('--timeout-ms <n>', 'timeout of one request')
    .option('--retry-base-ms <n>', 'first retry delay (doubles per attempt, with jitter)');
}

/** `--provider` help from the descriptors: each id with the variables it reads. */
export function providerHelp(): string {
  const lines = DESCRIPTORS.map((d) => {
    const vars = [...d.keyVars, ...(d.baseUrlVar ? [d.baseUrlVar] : [])];
    return `${d.id}${vars.length ? ` (${vars.join(', ')})` : ''}, default model ${d.defaultModel}`;
  });
  return `one of ${PROVIDER_IDS.join(' | ')}:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/** CLI flags → RunSettings; errors name the flag. */
export function runSettingsFromOptions(o: SettingsOptions): RunSettings {
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const provider = o.provider ?? 'simulated';
  const input = {
    provider,
    model: o.model ?? (isProviderId(provider) ? DESCRIPTORS.find((d) => d.id === provider)?.defaultModel : undefined) ?? 'default',
    temperature: num(o.temperature),
    maxOutputTokens: num(o.maxOutputTokens),
    seed: num(o.seed),
    baseUrl: o.baseUrl,
    concurrency: num(o.concurrency),
    requestsPerMinute: num(o.rpm),
    maxAttempts: num(o.maxAttempts),
    timeoutMs: num(o.timeoutMs),
    retryBaseMs: num(o.retryBaseMs),
  };
  const r = RunSettings.safeParse(Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
  if (!r.success) throw new UsageError(`invalid run settings:\n${formatZodError(r.error)}`);
  return r.data;
}
