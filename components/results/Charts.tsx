'use client';

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { PercentBarChart } from './PercentBarChart';
import { SvgDownload } from './SvgDownload';

export interface RateBar {
  name: string;
  /** pass rate in % */
  rate: number | null;
  /** [rate − low, high − rate] in % points (Wilson) */
  wilson: [number, number];
  /** the same for the clustered (CR1) interval; [0, 0] when there is none */
  clustered: [number, number];
  condition: 'baseline' | 'treatment';
}

/** Pass rate per condition with its 95% Wilson interval (thin bars) and clustered interval (thick). */
export function PassRateChart({ bars }: { bars: RateBar[] }) {
  return (
    <PercentBarChart data={bars} testId="chart-pass-rate" label="Pass rate per condition with 95% intervals" angle={-15}>
      <Bar dataKey="rate" name="pass rate (bars: Wilson 95%; thick: clustered CR1 95%)" fill="#2f5bd3" isAnimationActive={false}>
        <ErrorBar dataKey="clustered" width={10} strokeWidth={3} stroke="#c2410c" direction="y" />
        <ErrorBar dataKey="wilson" width={4} strokeWidth={1} stroke="#111" direction="y" />
      </Bar>
    </PercentBarChart>
  );
}

export interface FlowBar {
  name: string;
  improved: number;
  same: number;
  regressed: number;
  incomplete: number;
}

/** The paired flow per study: improved / same / regressed (and incomplete) pairs, stacked. */
export function PairedFlowChart({ bars }: { bars: FlowBar[] }) {
  if (bars.length === 0) return null;
  return (
    <>
      <div className="chart chart-short" data-testid="chart-paired-flow" aria-label="Paired outcomes per study">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={bars} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 24 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" tick={{ fontSize: 11 }} allowDecimals={false} />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 11 }} width={180} />
            <Tooltip />
            <Legend />
            <Bar dataKey="improved" stackId="p" name="improved (fail → pass)" fill="#15803d" isAnimationActive={false} />
            <Bar dataKey="same" stackId="p" name="same" fill="#9aa6bb" isAnimationActive={false} />
            <Bar dataKey="regressed" stackId="p" name="regressed (pass → fail)" fill="#b91c1c" isAnimationActive={false} />
            <Bar dataKey="incomplete" stackId="p" name="incomplete" fill="#e5e7eb" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <SvgDownload chartTestId="chart-paired-flow" fileName="chart-paired-flow" />
    </>
  );
}

export interface OrderBar {
  name: string;
  /** % of cases whose decision changed with the order */
  flip: number | null;
  /** % of tool calls that picked the tool listed first, with its Wilson interval */
  first: number | null;
  firstCi: [number, number];
}

/** Order consistency per condition: flip rate and first-position pick rate (50% = no position preference with two tools). */
export function OrderConsistencyChart({ bars }: { bars: OrderBar[] }) {
  return (
    <PercentBarChart data={bars} testId="chart-order-consistency" label="Order consistency per condition" className="chart chart-short">
      <Bar dataKey="flip" name="flip rate" fill="#b45309" isAnimationActive={false} />
      <Bar dataKey="first" name="first-position pick rate (Wilson 95%)" fill="#6d28d9" isAnimationActive={false}>
        <ErrorBar dataKey="firstCi" width={4} stroke="#111" direction="y" />
      </Bar>
    </PercentBarChart>
  );
}
