'use client';

import type { ReactNode } from 'react';
import { BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SvgDownload } from './SvgDownload';

const LABEL_CHARS = 44; // recharts wraps a label over two lines; past that, cut
const short = (s: string) => (s.length > LABEL_CHARS ? `${s.slice(0, LABEL_CHARS - 1)}…` : s);

/**
 * The frame the percentage bar charts share (Table 1's rows, pass rate, order consistency): one horizontal
 * band per category (`name`, cut to one line, whole in the tooltip), so labels never overlap however many
 * there are or however narrow the screen; 0–100 % across, grid, tooltip and legend; the bars are its
 * children (their ErrorBars run along x). `legend` says what the bars and whiskers are, under the chart.
 */
export function PercentBarChart({
  data,
  testId,
  label,
  barsPerRow = 1,
  legend,
  children,
}: {
  data: object[];
  testId: string;
  label: string;
  /** bars in each band: sets the chart's height */
  barsPerRow?: number;
  legend: string;
  children: ReactNode;
}) {
  if (data.length === 0) return null;
  return (
    <figure className="chart-figure">
      <div className="chart" style={{ height: 80 + data.length * (14 + 18 * barsPerRow) }} data-testid={testId} aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }} barCategoryGap={6}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 11 }} width={170} interval={0} tickFormatter={short} />
            <Tooltip formatter={(v) => `${String(v)}%`} />
            <Legend />
            {children}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <SvgDownload chartTestId={testId} fileName={testId} />
      <figcaption className="small muted" data-testid={`${testId}-legend`}>
        {legend}
      </figcaption>
    </figure>
  );
}
