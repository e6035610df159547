import { afterAll, beforeAll } from 'vitest';
import { closeDb } from '../db/client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { resetEnvCache } from '../env';
import { closeQueues } from '../queue/connection';
import { startLoopbackServer, type LoopbackServer } from './loopback-server';

// The setup of the run-engine itests that drive the reference study against a loopback server (vitest
// hooks, so apart from lib/testing/engine.ts, which scripts/bench.ts loads outside vitest).

/** A run engine's test setup against a loopback OpenAI-wire server (see loopbackEngine). */
export interface LoopbackEngine {
  /** The loopback server (started before the file's tests, closed after them). */
  readonly server: LoopbackServer;
  /** The reference study's experiment. */
  readonly experimentId: string;
  /** Run settings for the openai provider against the server: the file's own, then `extra`. */
  settings(extra?: Record<string, unknown>): Record<string, unknown>;
}

/**
 * The setup the engine itests share: a loopback server (options as startLoopbackServer's), the openai key
 * and the variables `env` names set, the reference study's experiment stored; after the file's tests the
 * server, the queues and the pool closed. A file's own afterAll, registered after this, runs before it.
 */
export function loopbackEngine(opts: {
  key: string;
  env: (server: LoopbackServer) => Record<string, string>;
  settings: Record<string, unknown>;
  server?: Parameters<typeof startLoopbackServer>[0];
}): LoopbackEngine {
  let server: LoopbackServer | undefined;
  let experimentId: string | undefined;
  beforeAll(async () => {
    server = await startLoopbackServer(opts.server);
    Object.assign(process.env, { OPENAI_API_KEY: opts.key, ...opts.env(server) });
    resetEnvCache();
    experimentId = (await ensureTemplateExperiment('reference-study')).id;
  });
  afterAll(async () => {
    await server?.close();
    await closeQueues();
    await closeDb();
  });
  const engine: LoopbackEngine = {
    get server() {
      if (!server) throw new Error('the loopback server starts in beforeAll');
      return server;
    },
    get experimentId() {
      if (!experimentId) throw new Error('the experiment is stored in beforeAll');
      return experimentId;
    },
    settings: (extra = {}) => ({ provider: 'openai', model: 'loopback-model', baseUrl: engine.server.openaiBaseUrl, retryBaseMs: 20, ...opts.settings, ...extra }),
  };
  return engine;
}
