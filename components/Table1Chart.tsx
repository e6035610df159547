'use client';

import { Bar } from 'recharts';
import { PercentBarChart } from './results/PercentBarChart';

export interface ChartRow {
  name: string;
  baseline: number | null;
  treatment: number | null;
}

/** Baseline vs. treatment pass rate (%) per Table 1 row. */
export function Table1Chart({ rows }: { rows: ChartRow[] }) {
  return (
    <PercentBarChart data={rows} testId="table1-chart" label="Pass rate per row, baseline vs. treatment" angle={-20}>
      <Bar dataKey="baseline" name="baseline pass rate" fill="#9aa6bb" isAnimationActive={false} />
      <Bar dataKey="treatment" name="treatment pass rate" fill="#2f5bd3" isAnimationActive={false} />
    </PercentBarChart>
  );
}
