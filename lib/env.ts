import 'dotenv/config';
import { z } from 'zod';

// The one place that reads process.env. Provider keys are parsed here but only lib/providers uses them.
// Empty strings count as unset.
const empty = (v: unknown) => (v === '' ? undefined : v);

/**
 * A stdio MCP server an admin allows to be started from the web app (TCLAB_MCP_SERVERS): the command and
 * its arguments are fixed here; a user picks it by name.
 */
export const ConfiguredMcpServer = z.object({
  name: z.string().trim().min(1, 'a name to pick the server by').max(100),
  command: z.string().min(1, 'the command that starts the server'),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
  cwd: z.string().optional(),
});
export type ConfiguredMcpServer = z.infer<typeof ConfiguredMcpServer>;

/** A JSON value in a variable: a parse failure is an issue naming the variable, not a SyntaxError. */
const jsonText = (name: string) => (v: unknown, ctx: z.RefinementCtx) => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `${name}: not valid JSON (${(e as Error).message})` });
    return z.NEVER;
  }
};

const EnvSchema = z
  .object({
    DATABASE_URL: z.preprocess(empty, z.string().default('postgresql://postgres@127.0.0.1:5432/tclab')),
    REDIS_URL: z.preprocess(empty, z.string().default('redis://127.0.0.1:6379')),
    /** Prefix of every BullMQ key, so tests and several installations can share one Redis. */
    TCLAB_QUEUE_PREFIX: z.preprocess(empty, z.string().default('tclab')),
    TCLAB_WORKER_CONCURRENCY: z.preprocess(empty, z.coerce.number().int().min(1).max(2048).default(128)),
    TCLAB_LOG_LEVEL: z.preprocess(empty, z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info')),
    PORT: z.preprocess(empty, z.coerce.number().int().default(3000)),
    /** The address the web app listens on; loopback unless set (lib/auth: single-user mode only on loopback). */
    HOST: z.preprocess(empty, z.string().default('127.0.0.1')),
    /** The first admin, created at server start when no user exists yet. */
    TCLAB_ADMIN_EMAIL: z.preprocess(empty, z.string().email().optional()),
    TCLAB_ADMIN_PASSWORD: z.preprocess(empty, z.string().min(12, 'TCLAB_ADMIN_PASSWORD: at least 12 characters').optional()),
    /** Signs session cookies; generated once and kept in the database when unset. */
    TCLAB_AUTH_SECRET: z.preprocess(empty, z.string().min(32, 'TCLAB_AUTH_SECRET: at least 32 characters').optional()),
    /** The address users open (e.g. https://lab.example.org), when the app sits behind a proxy. */
    TCLAB_PUBLIC_URL: z.preprocess(empty, z.string().url().optional()),
    /** Sign-in attempts allowed per client per minute (Better Auth's rate limit, kept in PostgreSQL). */
    TCLAB_SIGNIN_MAX: z.preprocess(empty, z.coerce.number().int().min(1).max(1000).default(5)),
    /** BullMQ lock: how soon a job held by a dead worker is delivered again. */
    TCLAB_LOCK_MS: z.preprocess(empty, z.coerce.number().int().min(1000).default(30_000)),
    /**
     * Heartbeat of a worker or of a process sending a run's pre-checks (docs/faults.md › Recovery after a crash):
     * its row in PostgreSQL is renewed every TCLAB_HEARTBEAT_MS and lapses TCLAB_HEARTBEAT_TTL_MS after the last
     * renewal; then its claims are taken over. The TTL must be at least twice the interval.
     */
    TCLAB_HEARTBEAT_MS: z.preprocess(empty, z.coerce.number().int().min(100).max(60_000).default(1000)),
    TCLAB_HEARTBEAT_TTL_MS: z.preprocess(empty, z.coerce.number().int().min(200).max(600_000).default(5000)),
    TCLAB_RECONCILE_MS: z.preprocess(empty, z.coerce.number().int().min(200).default(10_000)),
    /** Batch mode (docs/batch.md): how often a worker polls its provider batches and looks for trials to batch. */
    TCLAB_BATCH_POLL_MS: z.preprocess(empty, z.coerce.number().int().min(50).max(3_600_000).default(30_000)),
    /** Batch mode: the most attempts in one provider batch (Gemini's inlined requests are bounded by size). */
    TCLAB_BATCH_MAX_ITEMS: z.preprocess(empty, z.coerce.number().int().min(1).max(50_000).default(1000)),
    /**
     * A completed run of at least this many trials has what its pages read (Table 1, the matrices, the review list,
     * the funnel) computed and stored as it completes, by the worker or `tclab run` (lib/runs/warm.ts); a smaller
     * run's first view computes it in well under a second.
     */
    TCLAB_WARM_MIN_TRIALS: z.preprocess(empty, z.coerce.number().int().min(1).default(5000)),
    /** The most formal trials one run of a spec may make; a spec over it is refused when read (lib/experiments/parse.ts). */
    TCLAB_MAX_TRIALS_PER_RUN: z.preprocess(empty, z.coerce.number().int().min(1).default(1_000_000)),
    /**
     * A run whose paid formal requests (all its targets together; simulated models excluded) are more than this
     * is not started without a confirmation naming the number (docs/spend-guards.md).
     */
    TCLAB_CONFIRM_REQUESTS: z.preprocess(empty, z.coerce.number().int().min(0).default(10_000)),
    /** Likewise for the estimated cost (in the price table's currency) where the price table knows the model. */
    TCLAB_CONFIRM_COST: z.preprocess(empty, z.coerce.number().min(0).default(100)),
    /** `1`: the CLI prints a stack trace with an unexpected error (otherwise one line per issue). */
    TCLAB_DEBUG: z.preprocess(empty, z.enum(['0', '1']).default('0')),
    TCLAB_DB_POOL: z.preprocess(empty, z.coerce.number().int().min(1).max(500).default(20)),
    OPENAI_API_KEY: z.preprocess(empty, z.string().optional()),
    OPENAI_BASE_URL: z.preprocess(empty, z.string().url().optional()),
    /** Key for the openai-compatible provider only, so a real OpenAI key never goes to another server. */
    OPENAI_COMPATIBLE_API_KEY: z.preprocess(empty, z.string().optional()),
    /** Where the openai-compatible provider sends its requests (and OPENAI_COMPATIBLE_API_KEY, when set). */
    OPENAI_COMPATIBLE_BASE_URL: z.preprocess(empty, z.string().url().optional()),
    GEMINI_API_KEY: z.preprocess(empty, z.string().optional()),
    GOOGLE_API_KEY: z.preprocess(empty, z.string().optional()),
    GEMINI_BASE_URL: z.preprocess(empty, z.string().url().optional()),
    /**
     * Base URLs a run may name besides the one configured beside each provider's key, comma- or
     * space-separated (an entry without a path allows every path on its origin). A provider's key is sent
     * nowhere else.
     */
    TCLAB_ALLOWED_BASE_URLS: z.preprocess(empty, z.string().optional()),
    /**
     * The stdio MCP servers a signed-in researcher may import tools from (JSON: [{name, command, args, env?,
     * cwd?}]). In exposed mode only these, and only an admin may start any other command (docs/mcp-import.md).
     */
    TCLAB_MCP_SERVERS: z.preprocess(
      empty,
      z
        .preprocess(
          jsonText('TCLAB_MCP_SERVERS'),
          z.array(ConfiguredMcpServer, { error: 'TCLAB_MCP_SERVERS: a JSON array of {name, command, args, env?, cwd?}' }).superRefine((list, ctx) => {
            const seen = new Set<string>();
            for (const [i, s] of list.entries()) {
              if (seen.has(s.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `TCLAB_MCP_SERVERS: the name "${s.name}" is given twice` });
              seen.add(s.name);
            }
          }),
        )
        .default([]),
    ),
    /**
     * URLs an MCP import may reach although their address is loopback, private or link-local (comma- or
     * space-separated; an entry without a path allows every path on its origin). Exposed mode only.
     */
    TCLAB_MCP_ALLOWED_URLS: z.preprocess(empty, z.string().optional()),
    ANTHROPIC_API_KEY: z.preprocess(empty, z.string().optional()),
    ANTHROPIC_BASE_URL: z.preprocess(empty, z.string().url().optional()),
  })
  .refine((e) => e.TCLAB_HEARTBEAT_TTL_MS >= 2 * e.TCLAB_HEARTBEAT_MS, {
    path: ['TCLAB_HEARTBEAT_TTL_MS'],
    message: 'TCLAB_HEARTBEAT_TTL_MS: at least twice TCLAB_HEARTBEAT_MS (a heartbeat may miss one renewal)',
  });
export type Env = z.infer<typeof EnvSchema>;

let cached: Env | undefined;
export function env(): Env {
  cached ??= EnvSchema.parse(process.env);
  return cached;
}
/**
 * Forget the first admin's password once an account exists: the server's own environment no longer
 * carries it, so no child process inherits it (lib/auth/bootstrap.ts). The process's initial environment
 * block (/proc/self/environ) cannot be rewritten from here: scripts/serve.sh keeps it out of that too.
 */
export function forgetAdminPassword(): void {
  delete process.env.TCLAB_ADMIN_PASSWORD;
  if (cached) cached = { ...cached, TCLAB_ADMIN_PASSWORD: undefined };
}
/** Tests change the environment between suites. */
export function resetEnvCache(): void {
  cached = undefined;
}
