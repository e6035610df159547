import { afterAll, beforeAll } from 'vitest';
import { closeDb } from '../db/client';
import { closeQueues } from '../queue/connection';
import { startWorker, type StartWorkerOptions, type WorkerHandle } from '../runner/worker';
import { startLoopbackServer, type LoopbackServer, type Script } from './loopback-server';
import { FAKE_KEY, setProviderEnv } from './provider-fixtures';

// The setup of the itests that run the improve loop against a loopback OpenAI server (vitest hooks): the
// server answering with `script` (a closure may read what the file's own beforeAll sets: it is called per
// request), the openai key and base URL set for it, and a worker in this process; after the file's tests the
// worker, the queues, the pool and the server closed, and the environment restored.

export function loopbackWithWorker(opts: { script: Script; record?: boolean; worker?: StartWorkerOptions }): { readonly server: LoopbackServer } {
  let server: LoopbackServer | undefined;
  let worker: WorkerHandle | undefined;
  let restoreEnv = () => {};
  beforeAll(async () => {
    server = await startLoopbackServer({ script: (req) => opts.script(req), record: opts.record });
    restoreEnv = setProviderEnv({ OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: server.openaiBaseUrl, TCLAB_ALLOWED_BASE_URLS: undefined });
    worker = startWorker({ concurrency: 8, ...opts.worker });
    await worker.ready;
  });
  afterAll(async () => {
    await worker?.close();
    await closeQueues();
    await closeDb();
    restoreEnv();
    await server?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('the loopback server starts in beforeAll');
      return server;
    },
  };
}
