'use client';

import type { ReactNode } from 'react';
import { BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The frame the percentage bar charts share (Table 1's rows, pass rate, order consistency): categories on
 * the x axis by `name`, 0–100 % on the y axis, grid, tooltip and legend; the bars are its children.
 * `angle` slants long category names; `legend` says what the bars and whiskers are (under the chart).
 */
export function PercentBarChart({
  data,
  testId,
  label,
  className = 'chart',
  angle,
  legend,
  children,
}: {
  data: object[];
  testId: string;
  label: string;
  className?: string;
  angle?: number;
  legend: string;
  children: ReactNode;
}) {
  if (data.length === 0) return null;
  return (
    <figure className="chart-figure">
      <div className={className} data-testid={testId} aria-label={label}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 16, bottom: 24, left: 24 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {angle === undefined ? (
              <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={0} />
            ) : (
              <XAxis dataKey="name" tick={{ fontSize: 11 }} interval={0} height={60} angle={angle} textAnchor="end" />
            )}
            <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 11 }} />
            <Tooltip formatter={(v) => `${String(v)}%`} />
            <Legend />
            {children}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="small muted" data-testid={`${testId}-legend`}>
        {legend}
      </figcaption>
    </figure>
  );
}
