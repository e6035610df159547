// The CLI compiled ahead of time: cli/tclab.ts and the lib/ code it imports, bundled by esbuild into
// node_modules/.cache/tclab-cli/<hash>/ (one ES module per command, split so a command loads only its own
// code; node_modules stay runtime imports). `tclab` (cli/tclab.mjs) runs that bundle in its own process:
// no TypeScript loader, whose hooks thread and esbuild service held about 90 MB of a `tclab export`.
// `node cli/bundle.mjs` builds it when it is stale (scripts/env.sh, so setup, start and test do); the
// launcher also checks, and rebuilds on demand, so an edited source is never run stale.
//
// Stale means: no bundle yet, or one of the files it was built from (esbuild's metafile: every cli/ and
// lib/ source bundled, plus this file and tsconfig.json) is missing or was modified after its build began.
// Builds are atomic (a temporary directory renamed into place, then current.json replaced), so processes
// that start together may each build, but none runs a half-written bundle.
import { randomBytes, createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'tclab-cli');
const CURRENT = path.join(CACHE, 'current.json');
const ENTRY = 'tclab.mjs';
/** Inputs that are not in the metafile but change the output. */
const CONFIG = ['cli/bundle.mjs', 'tsconfig.json'];
/** Builds older than this (not the current one) are removed by the next build; a long `tclab run` may still load a chunk of its own. */
const KEEP_MS = 24 * 3600 * 1000;

/** The current bundle's entry file, or null when there is none or it is stale. */
export function freshBundle() {
  let cur;
  try {
    cur = JSON.parse(readFileSync(CURRENT, 'utf8'));
  } catch {
    return null;
  }
  const entry = path.join(CACHE, cur.dir, ENTRY);
  try {
    statSync(entry);
    for (const f of cur.inputs) if (statSync(path.join(ROOT, f)).mtimeMs >= cur.startedAt) return null;
  } catch {
    return null; // a missing input or bundle
  }
  return entry;
}

/** Builds the bundle now; returns its entry file. */
export async function buildBundle() {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  mkdirSync(CACHE, { recursive: true });
  const tmp = path.join(CACHE, `tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const r = await build({
      absWorkingDir: ROOT,
      entryPoints: ['cli/tclab.ts'],
      outdir: tmp,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      outExtension: { '.js': '.mjs' },
      sourcemap: 'linked', // NODE_OPTIONS=--enable-source-maps shows TypeScript lines in a stack trace
      metafile: true,
      logLevel: 'warning',
    });
    const files = readdirSync(tmp).sort();
    const hash = createHash('sha256');
    for (const f of files) hash.update(f).update(readFileSync(path.join(tmp, f)));
    const dir = hash.digest('hex').slice(0, 16);
    try {
      renameSync(tmp, path.join(CACHE, dir));
    } catch (e) {
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e; // the same build is in place already
    }
    const inputs = [...new Set([...Object.keys(r.metafile.inputs).filter((f) => !f.startsWith('node_modules/')), ...CONFIG])];
    const next = `${CURRENT}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(next, JSON.stringify({ dir, startedAt, inputs }));
    renameSync(next, CURRENT);
    prune(dir);
    return path.join(CACHE, dir, ENTRY);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function prune(keep) {
  for (const name of readdirSync(CACHE)) {
    if (name === keep || name === 'current.json') continue;
    const p = path.join(CACHE, name);
    try {
      if (Date.now() - statSync(p).mtimeMs > (name.startsWith('tmp-') || name.startsWith('current.json.') ? 3600 * 1000 : KEEP_MS))
        rmSync(p, { recursive: true, force: true });
    } catch {
      /* removed meanwhile */
    }
  }
}

/** The bundle's entry file, built first when stale. */
export async function cliBundle() {
  return freshBundle() ?? (await buildBundle());
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (freshBundle()) process.exit(0);
  process.stderr.write('[tclab] building the CLI (esbuild)…\n');
  await buildBundle();
}
