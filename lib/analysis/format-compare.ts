import type { RunComparison } from '../schema/compare';
import { differenceCi, formatP, formatTable1, pts as points } from './format';
import type { Difference } from '../schema/table1';
import { differenceText, type GuardedField } from './comparability';

/** `+12.5 pts [-3.1 pts, +28.0 pts]`: a difference in percentage points with its interval (`—` and why without one). */
function pts(d: Difference): string {
  if (d.estimate === null) return '—';
  const ci = differenceCi(d);
  return `${points(d.estimate)} ${ci.reason ? `— (${ci.reason})` : ci.text}`;
}

/** The run's label, with its experiment version when the compared runs ran more than one. */
export function runLabel(c: Pick<RunComparison, 'runs'>, r: RunComparison['runs'][number]): string {
  return new Set(c.runs.map((x) => x.experimentId)).size > 1 ? `${r.label} (v${r.version})` : r.label;
}

/** The comparison as plain text: Table 1 per model, then each model against the first on identical trials. */
export function formatComparison(c: RunComparison): string {
  const out: string[] = [];
  for (const r of c.runs) {
    out.push(
      `== ${runLabel(c, r)}${r.simulated ? ' — simulated: a heuristic, not a language model' : ''} (run ${r.runId}, ${r.status})`,
      '',
      formatTable1(r.summary),
      '',
    );
  }
  for (const o of c.guardOverrides ?? []) {
    out.push(`== compared with an override of the comparability guard (run ${o.runId}): ${o.reason}`);
    for (const d of o.differences) out.push(`  differs: ${differenceText({ ...d, field: d.field as GuardedField })}`);
    out.push('');
  }
  const ref = c.runs[0];
  const labelOf = new Map(c.runs.map((r) => [r.runId, runLabel(c, r)]));
  for (const v of c.versions) {
    if (v.from === v.to) continue;
    out.push(`== ${v.from} → ${v.to}: ${v.changes.length} change${v.changes.length === 1 ? '' : 's'} by JSON path`);
    for (const x of v.changes) out.push(`  ${x.kind.padEnd(7)} ${x.path}`);
    out.push(`   ${v.pairedCases} case${v.pairedCases === 1 ? '' : 's'} unchanged and paired; ${v.excludedCases.length} listed apart (not in the paired counts):`);
    for (const x of v.excludedCases) out.push(`  ${x.study} / ${x.scenario} / ${x.locale} / ${x.caseId}: ${x.reason}`);
    out.push('');
  }
  out.push(`== run vs run on identical trials (same case, condition, order, replicate), against ${labelOf.get(ref.runId)}; clusters: ${c.clusterBy}`);
  const header = [
    'study / condition',
    'run',
    'trials',
    'reference passed',
    'run passed',
    'improved / same / regressed',
    'difference, 95% CI (CR1)',
    'McNemar exact / mid-p',
  ];
  const rows: string[][] = [];
  for (const d of c.differences) {
    for (const x of d.conditions) {
      rows.push([
        `${d.study} / ${x.condition}`,
        labelOf.get(d.otherRunId) ?? d.otherRunId,
        String(x.pairs),
        String(x.referencePass),
        String(x.otherPass),
        `${x.otherBetter} / ${x.same} / ${x.referenceBetter}`,
        pts(x.difference),
        x.mcnemar ? `${formatP(x.mcnemar.pExact)} / ${formatP(x.mcnemar.pMid)}` : '—',
      ]);
    }
  }
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => [...r[i]].length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => cell + ' '.repeat(widths[i] - [...cell].length))
      .join('  ')
      .trimEnd();
  out.push('', line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line));
  return out.join('\n');
}
