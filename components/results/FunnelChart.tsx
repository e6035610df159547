'use client';

import { CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SvgDownload } from './SvgDownload';

export interface FunnelChartSeries {
  /** discovery · condition */
  name: string;
  points: {
    n: number;
    toolTokens: number;
    /** per stage: the rate and its 95% Wilson interval, in %; null without trials at that stage */
    stages: Record<string, { rate: number; low: number; high: number } | null>;
  }[];
}

const COLORS = ['#2f5bd3', '#c2410c', '#15803d', '#7c3aed', '#0e7490', '#b91c1c'];
const PANELS = [
  { key: 'visible', label: 'needed tool visible (recall@k)' },
  { key: 'selected', label: 'chosen | visible' },
  { key: 'arguments', label: 'arguments | chosen' },
  { key: 'result', label: 'end result' },
  { key: 'toolTokens', label: 'tool tokens per request' },
] as const;

/** One panel: a line per discovery × condition against N (with 95% Wilson whiskers for rates). */
function Panel({ study, panel, series }: { study: string; panel: (typeof PANELS)[number]; series: FunnelChartSeries[] }) {
  const sizes = [...new Set(series.flatMap((s) => s.points.map((p) => p.n)))].sort((a, b) => a - b);
  const tokens = panel.key === 'toolTokens';
  const data = sizes.map((n) => {
    const d: Record<string, number | [number, number] | null> = { n };
    series.forEach((s, i) => {
      const p = s.points.find((x) => x.n === n);
      if (!p) return;
      if (tokens) d[`s${i}`] = p.toolTokens;
      else {
        const v = p.stages[panel.key];
        d[`s${i}`] = v ? Math.round(v.rate * 10) / 10 : null;
        d[`e${i}`] = v ? [v.rate - v.low, v.high - v.rate] : null;
      }
    });
    return d;
  });
  const testId = `chart-funnel-${study}-${panel.key}`;
  return (
    <figure className="chart-figure">
      <div className="chart chart-short" data-testid={testId} aria-label={`${study}: ${panel.label} against catalog size N`}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 4 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="n" tick={{ fontSize: 11 }} label={{ value: 'catalog size N', position: 'insideBottomRight', offset: -4, fontSize: 11 }} />
            <YAxis tick={{ fontSize: 11 }} domain={tokens ? [0, 'auto'] : [0, 100]} unit={tokens ? '' : '%'} width={56} />
            <Tooltip />
            <Legend />
            {series.map((s, i) => (
              <Line key={s.name} dataKey={`s${i}`} name={s.name} stroke={COLORS[i % COLORS.length]} isAnimationActive={false} connectNulls>
                {!tokens && <ErrorBar dataKey={`e${i}`} width={4} strokeWidth={1} stroke={COLORS[i % COLORS.length]} direction="y" />}
              </Line>
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <SvgDownload chartTestId={testId} fileName={testId} />
      <figcaption className="small muted">
        {panel.label} against N, one line per discovery · condition
        {tokens ? ' (estimated tokens of the tool definitions sent).' : '; whiskers: 95% Wilson interval.'}
      </figcaption>
    </figure>
  );
}

/** The funnel's stages and tool tokens against catalog size N, per discovery and condition. */
export function FunnelChart({ study, series }: { study: string; series: FunnelChartSeries[] }) {
  if (series.length === 0) return null;
  return (
    <div className="grid-2" data-testid={`chart-funnel-${study}`}>
      {PANELS.map((p) => (
        <Panel key={p.key} study={study} panel={p} series={series} />
      ))}
    </div>
  );
}
