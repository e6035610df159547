import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
const prefix = 'tclab-bqtest-' + process.pid;
const conn = () => new Redis({ maxRetriesPerRequest: null });
const q = new Queue('t', { connection: conn(), prefix });
const t0 = Date.now();
const starts: number[] = [];
const [first, chunk, nw, conc, pause] = process.argv.slice(2).map(Number);
const ws = Array.from({ length: nw }, () => new Worker('t', async () => { starts.push(Date.now() - t0); await new Promise((r) => setTimeout(r, 100)); }, { connection: conn(), prefix, concurrency: conc }));
await new Promise((r) => setTimeout(r, 500));
const t1 = Date.now() - t0;
let size = first;
for (let i = 0; i < 5000; i += size, size = chunk) {
  await q.addBulk(Array.from({ length: Math.min(size, 5000 - i) }, (_, k) => ({ name: 'x', data: { i: i + k }, opts: { jobId: `j${i + k}`, removeOnComplete: true } })));
  if (i === 0 && pause) await new Promise((r) => setTimeout(r, pause));
}
const t2 = Date.now() - t0;
await new Promise((r) => setTimeout(r, 1500));
const rel = starts.map((s) => s - t1);
console.log(process.argv.slice(2).join(','), 'addsMs', t2 - t1, 'started by 25/50/100/200/300/500ms:', [25, 50, 100, 200, 300, 500].map((x) => rel.filter((s) => s < x).length).join('/'), 'total by 1000ms', rel.filter((s) => s < 1000).length);
await Promise.all(ws.map((w) => w.close())); await q.obliterate({ force: true }); await q.close(); process.exit(0);
