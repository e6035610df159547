'use client';

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartRow {
  name: string;
  /** pass rate in %; null without decided trials */
  baseline: number | null;
  treatment: number | null;
  /** [rate − low, high − rate] of the 95% Wilson interval, in % points; null without one */
  baselineCi: [number, number] | null;
  treatmentCi: [number, number] | null;
}

const LABEL_CHARS = 28;
const short = (s: string) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

/**
 * Baseline vs. treatment pass rate (%) per Table 1 row, each with its 95% Wilson interval. The rows run down
 * the page (one band each, labels horizontal and cut to one line, whole in the tooltip), so labels never
 * overlap however many rows there are.
 */
export function Table1Chart({ rows }: { rows: ChartRow[] }) {
  if (rows.length === 0) return null;
  return (
    <figure className="chart-figure" data-testid="table1-chart">
      <div className="chart" style={{ height: 70 + rows.length * 46 }} aria-label="Pass rate per row, baseline vs. treatment, with 95% Wilson intervals">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }} barCategoryGap={8}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 11 }} width={170} interval={0} tickFormatter={short} />
            <Tooltip formatter={(v) => `${String(v)}%`} />
            <Legend />
            <Bar dataKey="baseline" name="baseline pass rate" fill="#9aa6bb" isAnimationActive={false}>
              <ErrorBar dataKey="baselineCi" width={3} stroke="#111" direction="x" />
            </Bar>
            <Bar dataKey="treatment" name="treatment pass rate" fill="#2f5bd3" isAnimationActive={false}>
              <ErrorBar dataKey="treatmentCi" width={3} stroke="#111" direction="x" />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="small muted" data-testid="table1-chart-legend">
        Bars: pass rate per Table 1 row (k/n of decided trials). Whiskers: its 95% Wilson interval.
      </figcaption>
    </figure>
  );
}
