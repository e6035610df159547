// The built app (`next start`) for a benchmark script: started on a port of the script's, in single-user mode
// when the environment holds no admin (docs/access.md), and the one-time link it wrote opened once for its cookie.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { resetEnvCache } from '../lib/env';

const ROOT = path.resolve(import.meta.dirname, '..');

/** `next start` on 127.0.0.1:`port` with this process's environment, once /api/health answers. Its own process group. */
export async function startBuiltApp(port: number): Promise<ChildProcess> {
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) throw new Error('build the app first: npm run build');
  rmSync(path.join(ROOT, '.tclab', `single-user-link-${port}`), { force: true }); // an earlier start's
  const server = spawn(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), NEXT_TELEMETRY_DISABLED: '1' },
    detached: true,
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      /* not up yet */
    }
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    if (i > 600) throw new Error('next start did not come up');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops a server startBuiltApp started (its whole process group). */
export function stopBuiltApp(server: ChildProcess | undefined): void {
  if (!server?.pid) return;
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
}

/** The cookie of the link a single-user server on `port` wrote to .tclab/ (lib/auth/local-link.ts): opened once. */
export async function openSingleUserLink(port: number): Promise<string> {
  const file = path.join(ROOT, '.tclab', `single-user-link-${port}`);
  for (let i = 0; !existsSync(file); i++) {
    if (i > 100) throw new Error(`the server wrote no single-user link to ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await fetch(readFileSync(file, 'utf8').trim(), { redirect: 'manual' });
  const set = res.headers.get('set-cookie');
  if (res.status !== 303 || !set) throw new Error(`the single-user link: HTTP ${res.status}`);
  return set.split(';')[0];
}

/** Peak RSS (VmHWM) of a process and its descendants, in MB. */
export function peakRssMb(pid: number): number {
  let pids = [pid];
  try {
    pids = pids.concat(
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    /* no children */
  }
  let max = 0;
  for (const p of pids) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) max = Math.max(max, Number(m[1]) / 1024);
    } catch {
      /* gone */
    }
  }
  return max;
}

/**
 * A benchmark's own database and Redis key prefix (`tclab_bench_<name>_<pid>_<random>`, or the database named),
 * set in this process's environment with warn-level logs; with `singleUser`, the built app's single-user mode
 * too (loopback, no first admin made at start). Returns the database's URL and the suffix used.
 */
export function benchEnvironment(name: string, opts: { database?: string; singleUser?: boolean } = {}): { url: string; suffix: string } {
  const suffix = `${process.pid}_${randomBytes(2).toString('hex')}`;
  const base = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/${opts.database || `tclab_bench_${name.replace(/-/g, '_')}_${suffix}`}`;
  process.env.DATABASE_URL = base.toString();
  process.env.TCLAB_QUEUE_PREFIX = `tclab-bench-${name}-${suffix}`;
  process.env.TCLAB_LOG_LEVEL = 'warn';
  if (opts.singleUser) singleUserMode();
  resetEnvCache();
  return { url: base.toString(), suffix };
}

/** The built app's single-user mode for a server this process starts: loopback, and no first admin made at start. */
export function singleUserMode(): void {
  process.env.HOST = '127.0.0.1';
  delete process.env.TCLAB_ADMIN_EMAIL;
  delete process.env.TCLAB_ADMIN_PASSWORD;
  resetEnvCache();
}
