import { setFlagsFromString } from 'node:v8';

/**
 * Let the heap grow by 2× per major GC instead of V8's up-to-4×. The long-lived processes — the worker, the
 * app server, the CLI — hold a small live set (the worker ~60 MB, a streaming export ~45 MB) but make garbage
 * fast, and left to the default the old generation swells to four times the live set before it is collected.
 * Set from code, not a command line, so that every way of starting each process gets it (V8 reads it at every
 * GC; NODE_OPTIONS refuses the flag).
 *
 * Measured quietly on the 2-core machine: the worker (npm run bench, C = 64 engineRatio / peak RSS) 1.5× 1.12–1.13
 * / ~205 MB, 2× 1.11 / 222–272 MB, 3× 1.09–1.10 / 266–272 MB (309 MB at C = 256), V8's default 1.08–1.11 /
 * 282–289 MB: 2× is the most the worker's 300 MB budget allows. `tclab export --out` of a 1,000,000-trial run
 * (2.7 GB of JSON): peak RSS 279 MB by default, 196 MB at 2×; the server over both exports 487 → 311 MB, and both
 * faster (docs/benchmarks.md › Session 11).
 */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=100');
}
