import type { Command } from 'commander';
import { parseRunTarget, RunSettings, type RunTarget } from '../../lib/schema/run';
import { formatZodError } from '../../lib/schema/common';
import { DESCRIPTORS, isProviderId, PROVIDER_IDS } from '../../lib/providers/registry';
import { UsageError } from '../errors';
import { isSimulatedProvider } from '../../lib/providers/vendor-descriptors';

export interface SettingsOptions {
  provider?: string;
  /** Repeatable: several models of --provider make one run each (a run group). */
  model?: string[];
  /** Repeatable `provider:model`: one run each. */
  target?: string[];
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
    .option('--model <name>', 'model name (default: the provider’s default); repeat it to run several models of --provider at once, one run each', collect, [])
    .option('--target <provider:model>', 'a provider/model pair to run; repeat it for several at once (one run each, same experiment version)', collect, [])
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

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * The provider/model targets of `--target` (repeated) or several `--model`; [] for a single run. Mixing
 * --target with --provider or several --model is refused, naming the flags.
 */
export function runTargetsFromOptions(o: SettingsOptions): RunTarget[] {
  const targets = o.target ?? [];
  const models = o.model ?? [];
  if (targets.length > 0) {
    if (models.length > 0 || (o.provider !== undefined && !isSimulatedProvider(o.provider))) {
      throw new UsageError('--target names provider and model: give either --target (repeated) or --provider with --model');
    }
    return targets.map((t, i) => {
      const r = parseRunTarget(t);
      if (typeof r === 'string') throw new UsageError(`--target (#${i + 1}): ${r}`);
      return r;
    });
  }
  if (models.length > 1) {
    const provider = o.provider ?? 'simulated';
    if (!isProviderId(provider)) throw new UsageError(`--provider: unknown provider "${provider}" (known: ${PROVIDER_IDS.join(', ')})`);
    return models.map((model) => ({ provider, model }));
  }
  return [];
}

/** CLI flags → RunSettings; errors name the flag. */
/** `simulatedModel`: the model a simulated run takes when --model is not given (a template's: lib/templates). */
export function runSettingsFromOptions(o: SettingsOptions, simulatedModel?: string): RunSettings {
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const provider = o.provider ?? 'simulated';
  const input = {
    provider,
    model:
      o.model?.[0] ??
      (isSimulatedProvider(provider) ? simulatedModel : undefined) ??
      (isProviderId(provider) ? DESCRIPTORS.find((d) => d.id === provider)?.defaultModel : undefined) ??
      'default',
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
