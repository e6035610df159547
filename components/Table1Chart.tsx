'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartRow {
  name: string;
  baseline: number | null;
  treatment: number | null;
}

/** Baseline vs. treatment pass rate (%) per Table 1 row. */
export function Table1Chart({ rows }: { rows: ChartRow[] }) {
  if (rows.length === 0) return null;
  return (
    <div className="chart" data-testid="table1-chart" aria-label="Pass rate per row, baseline vs. treatment">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 24, left: 24 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={0} height={60} angle={-20} textAnchor="end" />
          <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
          <Tooltip formatter={(v) => `${String(v)}%`} />
          <Legend />
          <Bar dataKey="baseline" name="baseline pass rate" fill="#9aa6bb" isAnimationActive={false} />
          <Bar dataKey="treatment" name="treatment pass rate" fill="#2f5bd3" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
