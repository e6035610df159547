import { setFlagsFromString } from 'node:v8';

/**
 * Let the heap grow by `growth` (2× or 1.5×) per major GC instead of V8's up-to-4×. The long-lived processes —
 * the worker, the app server, the CLI — hold a small live set (the worker ~60 MB, a streaming export ~45–55 MB)
 * but make garbage fast, and left to the default the old generation swells to four times the live set before
 * it is collected. Set from code, not a command line, so that every way of starting each process gets it (V8
 * reads it at every GC; NODE_OPTIONS refuses the flag).
 *
 * Measured quietly on the 2-core machine: the worker (npm run bench, C = 64 engineRatio / peak RSS) 1.5× 1.12–1.13
 * / ~205 MB, 2× 1.11 / 222–272 MB, 3× 1.09–1.10 / 266–272 MB (309 MB at C = 256), V8's default 1.08–1.11 /
 * 282–289 MB: 2× is the most the worker's 300 MB budget allows, and it keeps the worker's ratio. `tclab export
 * --out` of a 1,000,000-trial run (2.7 GB of JSON): peak RSS 279 MB by default, 148 MB at 2×. The app server
 * streams the same JSON over HTTP with the route's and Next's code beside it: 2× 251–256 MB, 1.5× 224–230 MB
 * (alternated, same session), its time 2–3 % longer (116 and 122 s against 114 and 119 s; the trials CSV no
 * slower): 1.5× (docs/benchmarks.md › Session 12). The CLI creating a 1,000,000-trial run holds ~60 MB plus
 * ~1.1 KB per distinct case (the spec's copies): at 2× it peaked at 256 MB (5,000 cases) and 268–273 MB
 * (10,000 cases), at 1.5× 220–229 MB: 1.5× (docs/benchmarks.md › Creating a run).
 */
export function limitHeapGrowth(growth: 1.5 | 2 = 2): void {
  setFlagsFromString(`--heap-growing-percent=${Math.round((growth - 1) * 100)}`);
}
