// `npm run bench:lint`: how long `tclab lint` takes on generated catalogs (1,000 to 10,000 tools) and on
// one tool with a 1 MB description of several shapes (lib/testing/lint-catalog.ts). Each input is linted
// by the CLI as a user runs it (a process of its own, wall time from spawn to exit, Node's start included),
// and in this process, split into the linter and the token estimate. Targets (docs/benchmarks-lint.md): 10,000 tools in
// < 10 s, a 1 MB description in < 2 s. Prints a Markdown table for docs/benchmarks-lint.md.
//
//   npm run bench:lint            # all sizes
//   npm run bench:lint -- 2000    # one catalog size, and the 1 MB descriptions
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lintTools } from '../lib/design/lint';
import { wireToolsCost } from '../lib/design/tokens';
import { readToolFile } from '../lib/mcp/tools';
import { generatedCatalog, hugeDescriptions } from '../lib/testing/lint-catalog';

const sizes = process.argv[2] ? [Number(process.argv[2])] : [1_000, 2_000, 10_000];
const dir = await mkdtemp(path.join(os.tmpdir(), 'tclab-bench-lint-'));

function cli(file: string): Promise<{ code: number; ms: number; findings: number }> {
  // stdout to a file, as a CI step redirecting it would (a pipe may be cut by an early exit)
  const output = `${file}.out`;
  const fd = openSync(output, 'w');
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['cli/tclab.mjs', 'lint', file, '--json'], { stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      const ms = performance.now() - start;
      closeSync(fd);
      if (code !== 0 && code !== 1) return reject(new Error(`tclab lint ${file}: exit ${code}: ${stderr}`));
      resolve({ code: code ?? -1, ms, findings: (JSON.parse(readFileSync(output, 'utf8')) as { findings: unknown[] }).findings.length });
    });
  });
}

function inProcess(value: unknown): { lintMs: number; tokensMs: number } {
  const tools = readToolFile(value).tools;
  let t = performance.now();
  lintTools(tools);
  const lintMs = performance.now() - t;
  t = performance.now();
  wireToolsCost(tools.map((x) => ({ name: x.name, description: x.description, parameters: x.parameters })));
  return { lintMs, tokensMs: performance.now() - t };
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const rows: string[] = [];
const loadBefore = load();
try {
  // the CLI bundle is rebuilt when a source is newer: once, before anything is timed
  const warm = path.join(dir, 'warm.json');
  await writeFile(warm, JSON.stringify(generatedCatalog(10)));
  await cli(warm);
  const baseline = await cli(warm);
  rows.push(`| 10 tools (Node's start and the CLI's load) | ${s(baseline.ms)} | | | ${baseline.findings} | |`);

  for (const n of sizes) {
    const catalog = generatedCatalog(n);
    const file = path.join(dir, `catalog-${n}.json`);
    await writeFile(file, JSON.stringify(catalog));
    const run = await cli(file);
    const split = inProcess(catalog);
    rows.push(`| ${n.toLocaleString('en-US')} tools | ${s(run.ms)} | ${s(split.lintMs)} | ${s(split.tokensMs)} | ${run.findings} | ${n >= 10_000 ? '< 10 s' : ''} |`);
  }
  for (const [shape, description] of Object.entries(hugeDescriptions())) {
    const value = { tools: [{ name: 'huge', description, inputSchema: { type: 'object' } }] };
    const file = path.join(dir, 'huge.json');
    await writeFile(file, JSON.stringify(value));
    const run = await cli(file);
    const split = inProcess(value);
    rows.push(`| 1 MB description: ${shape} | ${s(run.ms)} | ${s(split.lintMs)} | ${s(split.tokensMs)} | ${run.findings} | < 2 s |`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}

const cpu = os.cpus();
console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${load()} after\n`);
console.log('| input | `tclab lint --json` (wall) | linter (in process) | token estimate (in process) | findings | target |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
