'use client';

import { Bar, ErrorBar } from 'recharts';
import { PercentBarChart } from './results/PercentBarChart';

export interface ChartRow {
  name: string;
  /** pass rate in %; null without decided trials */
  baseline: number | null;
  treatment: number | null;
  /** [rate − low, high − rate] of the 95% Wilson interval, in % points; null without one */
  baselineCi: [number, number] | null;
  treatmentCi: [number, number] | null;
}

/** Baseline vs. treatment pass rate (%) per Table 1 row, each with its 95% Wilson interval. */
export function Table1Chart({ rows }: { rows: ChartRow[] }) {
  return (
    <PercentBarChart
      data={rows}
      testId="table1-chart"
      label="Pass rate per row, baseline vs. treatment, with 95% Wilson intervals"
      barsPerRow={2}
      legend="Bars: pass rate per Table 1 row (k/n of decided trials), baseline and treatment. Whiskers: its 95% Wilson interval."
    >
      <Bar dataKey="baseline" name="baseline pass rate" fill="#9aa6bb" isAnimationActive={false}>
        <ErrorBar dataKey="baselineCi" width={3} stroke="#111" direction="x" />
      </Bar>
      <Bar dataKey="treatment" name="treatment pass rate" fill="#2f5bd3" isAnimationActive={false}>
        <ErrorBar dataKey="treatmentCi" width={3} stroke="#111" direction="x" />
      </Bar>
    </PercentBarChart>
  );
}
