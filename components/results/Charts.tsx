'use client';

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { PercentBarChart } from './PercentBarChart';
import { SvgDownload } from './SvgDownload';

export interface RateBar {
  name: string;
  /** pass rate in % */
  rate: number | null;
  /** [rate − low, high − rate] in % points (Wilson); null without decided trials */
  wilson: [number, number] | null;
  /** the same for the clustered (CR1) interval; null when there is none (no whisker is drawn) */
  clustered: [number, number] | null;
  condition: 'baseline' | 'treatment';
}

/** Pass rate per condition with its 95% Wilson interval (thin whiskers) and clustered interval (thick). */
export function PassRateChart({ bars }: { bars: RateBar[] }) {
  return (
    <PercentBarChart
      data={bars}
      testId="chart-pass-rate"
      label="Pass rate per condition with 95% intervals"
      legend="Bars: pass rate per condition (k/n of decided trials). Thin black whiskers: 95% Wilson interval. Thick orange whiskers: 95% cluster-robust (CR1) interval — none where it has nothing to estimate from (fewer than two clusters, or no variance between them)."
    >
      <Bar dataKey="rate" name="pass rate" fill="#2f5bd3" isAnimationActive={false}>
        <ErrorBar dataKey="clustered" width={10} strokeWidth={3} stroke="#c2410c" direction="x" />
        <ErrorBar dataKey="wilson" width={4} strokeWidth={1} stroke="#111" direction="x" />
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
    <figure className="chart-figure">
      <div className="chart chart-short" data-testid="chart-paired-flow" aria-label="Paired outcomes per study">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={bars} layout="vertical" margin={{ top: 8, right: 16, bottom: 8, left: 24 }}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" tick={{ fontSize: 11 }} allowDecimals={false} />
            <YAxis type="category" dataKey="name" tick={{ fontSize: 11 }} width={150} tickFormatter={(s: string) => (s.length > 24 ? `${s.slice(0, 23)}…` : s)} />
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
      <figcaption className="small muted">Bars: complete baseline → treatment pairs per study, stacked by outcome (counts, not rates: no interval).</figcaption>
    </figure>
  );
}

export interface OrderBar {
  name: string;
  /** % of cases whose decision changed with the order */
  flip: number | null;
  /** % of tool calls that picked the tool listed first, with its Wilson interval */
  first: number | null;
  firstCi: [number, number] | null;
}

/** Order consistency per condition: flip rate and first-position pick rate (50% = no position preference with two tools). */
export function OrderConsistencyChart({ bars }: { bars: OrderBar[] }) {
  return (
    <PercentBarChart
      data={bars}
      testId="chart-order-consistency"
      label="Order consistency per condition"
      barsPerRow={2}
      legend="Bars: flip rate (cases whose decision changed with the order) and first-position pick rate (tool calls that picked the tool listed first; 50% = no preference with two tools). Whiskers: the pick rate's 95% Wilson interval."
    >
      <Bar dataKey="flip" name="flip rate" fill="#b45309" isAnimationActive={false} />
      <Bar dataKey="first" name="first-position pick rate" fill="#6d28d9" isAnimationActive={false}>
        <ErrorBar dataKey="firstCi" width={4} stroke="#111" direction="x" />
      </Bar>
    </PercentBarChart>
  );
}
