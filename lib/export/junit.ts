import { PassThrough, type Readable } from 'node:stream';
import { placeLabel } from '../analysis/format';
import type { JunitTrial } from '../schema/trial-place';

export type { JunitTrial } from '../schema/trial-place';

export interface JunitSuiteCounts {
  study: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** XML 1.0 text: the five entities escaped, characters XML cannot carry dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Messages are link-free: a CI page renders them, and model or tool text must not become a link there. */
export function linkFree(s: string): string {
  return s.replace(/\b(?:https?|ftp|file|javascript|data):\/*[^\s"'<>]*/gi, '[link removed]').replace(/\bwww\.[^\s"'<>]+/gi, '[link removed]');
}

function caseXml(t: JunitTrial): string {
  const name = `${t.caseId} ${placeLabel(t.orderIndex, t.replicate)}`;
  const classname = `${t.study}.${t.scenario}.${t.locale}.${t.condition}`;
  const open = `    <testcase classname="${xmlText(classname)}" name="${xmlText(name)}" file="${xmlText(t.id)}">`;
  if (t.status === 'passed') return `${open}</testcase>\n`;
  if (t.status === 'failed') {
    const failed = t.verdicts.filter((v) => v.status === 'fail');
    const categories = [...new Set(failed.map((v) => v.category).filter((c) => c !== null))];
    const message = linkFree(`${categories.join(', ') || 'failed'}: ${failed.map((v) => v.checkId).join(', ')}`);
    const body = failed.map((v) => linkFree(`${v.checkId} [${v.category ?? 'fail'}]: ${v.reason}`)).join('\n');
    return `${open}\n      <failure message="${xmlText(message)}" type="${xmlText(categories.join(',') || 'fail')}">${xmlText(body)}</failure>\n    </testcase>\n`;
  }
  if (t.status === 'unresolved')
    return `${open}\n      <error message="unresolved: every attempt failed in transport (not a model failure; outside every denominator)" type="unresolved"/>\n    </testcase>\n`;
  const why = t.status === 'untested' ? 'untested: no evidence for at least one check' : `not run to a result (${t.status})`;
  return `${open}\n      <skipped message="${xmlText(why)}"/>\n    </testcase>\n`;
}

/**
 * The run as JUnit XML, streamed: one <testsuite> per study, one <testcase> per trial (trials must come
 * grouped by study, in the order of `suites`). failed → <failure> with its categories; unresolved →
 * <error>; untested and unfinished → <skipped>.
 */
export function junitXml(runName: string, suites: readonly JunitSuiteCounts[], trials: AsyncIterable<JunitTrial>): Readable {
  const out = new PassThrough();
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', r)));
  const total = suites.reduce((a, s) => ({ tests: a.tests + s.tests, failures: a.failures + s.failures, errors: a.errors + s.errors, skipped: a.skipped + s.skipped }), {
    tests: 0,
    failures: 0,
    errors: 0,
    skipped: 0,
  });
  (async () => {
    await write(
      `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlText(runName)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}">\n`,
    );
    let current: string | null = null;
    const known = new Map(suites.map((s) => [s.study, s]));
    for await (const t of trials) {
      if (t.study !== current) {
        if (current !== null) await write('  </testsuite>\n');
        const s = known.get(t.study) ?? { study: t.study, tests: 0, failures: 0, errors: 0, skipped: 0 };
        await write(`  <testsuite name="${xmlText(t.study)}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}" skipped="${s.skipped}">\n`);
        current = t.study;
      }
      await write(caseXml(t));
    }
    if (current !== null) await write('  </testsuite>\n');
    await write('</testsuites>\n');
    out.end();
  })().catch((e: Error) => out.destroy(e));
  return out;
}
