// The bare client of `npm run bench`, in a process of its own (as the worker is): the same OpenAI provider
// code (the SDK over our node:http fetch) sends the same N requests C at a time to the bench's loopback
// server, with no queue and no database on the way. A process of its own, so that it does not share an event
// loop with the loopback server (in the bench's process it competed with the server and its wall was
// inflated under load, which made engineRatio meaningless).
//
// Protocol (IPC): it reads the experiment from the bench database, builds the requests, sends {ready}; on
// {go} it sends them and answers {wallMs, cpuMs} (its own user + system CPU while sending), then exits.
import { getExperiment } from '../lib/db/experiments';
import { closeDb } from '../lib/db/client';
import { getProvider } from '../lib/providers/registry';
import { buildRequest, expandTrials } from '../lib/design/matrix';
import { RunSettings } from '../lib/schema/run';

const [experimentId, n, c, baseUrl] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
if (!process.send) throw new Error('bench-bare: run by scripts/bench.ts (an IPC channel is needed)');
const send = process.send.bind(process);

const exp = await getExperiment(experimentId);
if (!exp) throw new Error(`bench-bare: experiment ${experimentId} not found`);
await closeDb();
const requests = expandTrials(exp.spec)
  .slice(0, n)
  .map((t) => buildRequest(exp.spec, { study: t.study, caseId: t.caseId, condition: t.condition, toolOrder: t.toolOrder }));
if (requests.length !== n) throw new Error(`bench-bare: ${requests.length} requests for n = ${n}`);
const settings = RunSettings.parse({ provider: 'openai', model: 'bench', baseUrl, concurrency: c, timeoutMs: 30_000 });
const provider = getProvider('openai');

process.once('message', async () => {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (next < requests.length) {
        const r = await provider.send(requests[next++], { settings });
        if (r.outcome !== 'ok') throw new Error(`bare client: ${JSON.stringify(r).slice(0, 300)}`);
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  send({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 }, () => process.exit(0));
});
send({ ready: true });
