'use client';

import type { ReactNode } from 'react';
import { BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SvgDownload } from './SvgDownload';

/**
 * The frame the percentage bar charts share (Table 1's rows, pass rate, order consistency): categories on
 * the x axis by `name`, 0–100 % on the y axis, grid, tooltip and legend; the bars are its children.
 * `angle` slants long category names.
 */
export function PercentBarChart({
  data,
  testId,
  label,
  className = 'chart',
  angle,
  children,
}: {
  data: object[];
  testId: string;
  label: string;
  className?: string;
  angle?: number;
  children: ReactNode;
}) {
  if (data.length === 0) return null;
  return (
    <>
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
      <SvgDownload chartTestId={testId} fileName={testId} />
    </>
  );
}
