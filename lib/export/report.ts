import type { ExportChoices } from '../schema/choices';
import type { StoppingReport } from '../schema/stopping';
import type { PassCount, RunSummary, StudySummary } from '../schema/table1';
import type { ExperimentSpec } from '../schema/experiment';
import type { Choice } from '../analysis/choices';
import { formatCount, formatDifference, formatP, orderNumber, pct } from '../analysis/format';
import { readComparison } from '../analysis/reading';
import { wilson } from '../stats/wilson';

// The one-file report of runs (docs/report.md): a self-contained HTML page — no script, no request to any
// server, the charts as inline SVG — to attach to a paper, a pull request or a CI job. Every text that comes
// from a model, a tool definition or a user is escaped: nothing in it is ever live markup.

/** What one run's section of a report shows, computed by the use case (lib/runs/report.ts). */
export interface ReportRun {
  run: {
    id: string;
    name: string | null;
    note: string | null;
    provider: string;
    model: string;
    status: string;
    statusLabel: string;
    simulated: boolean;
    baseUrl: string | null;
    settings: Record<string, unknown>;
    createdAt: string;
    finishedAt: string | null;
    totalTrials: number;
  };
  experiment: { id: string; name: string; version: number; specHash: string; spec: ExperimentSpec };
  summary: RunSummary;
  choices: ExportChoices;
  /** What the model did, a trial each (grid of cases × conditions); at most GRID_MAX_TRIALS are passed. */
  grid: Choice[];
  /** How many trials the run has in all (the grid says when it shows fewer). */
  gridTotal: number;
  funnel: readonly Record<string, unknown>[];
  stopping: StoppingReport | null;
  /** A select or confirm run of an improve-descriptions loop: the stage and the loop's record as Markdown text. */
  optimisation: { stage: 'select' | 'confirm'; recordId: string; markdown: string } | null;
  /** Failed trials with what the model answered (the first FAILED_MAX among the grid's trials). */
  failed: ReportFailure[];
}

/** A failed trial as the report shows it: where, what was expected and chosen, the model's own text, the failed checks. */
export interface ReportFailure {
  trialId: string;
  study: string;
  caseId: string;
  condition: string;
  chosen: string;
  expected: string | null;
  text: string | null;
  failedChecks: string[];
}

/** The most failed trials a report quotes. */
export const FAILED_MAX = 50;
/** The most characters of a model's answer a report quotes. */
export const QUOTE_MAX = 600;

export interface ReportInput {
  title: string;
  runs: ReportRun[];
  /** Two or more runs: their comparison as `tclab runs compare` prints it. */
  comparison: string | null;
  /** The product and version that wrote it, and when. */
  generator: { name: string; version: string; at: string };
}

/** The most trials the grid of one run shows (the file stays small; the exports hold every trial). */
export const GRID_MAX_TRIALS = 2_000;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text as HTML text or attribute: `<script>` stays the characters `<script>`. Control characters (NUL included) are shown as code points. */
export function esc(v: unknown): string {
  return String(v ?? '')
    .replace(/[&<>"']/g, (c) => ESC[c])
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const STYLE = `
:root{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;line-height:1.45}
body{margin:0 auto;max-width:1100px;padding:16px}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #d0d7de}h3{font-size:1rem;margin:1rem 0 .4rem}
table{border-collapse:collapse;margin:.4rem 0;font-size:.9rem}td,th{border:1px solid #d0d7de;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f6f8fa}.scroll{overflow-x:auto;max-width:100%}.muted{color:#57606a}.small{font-size:.85rem}
.reading{font-weight:600}.pass{background:#dafbe1}.fail{background:#ffebe9}.other{background:#fff8c5}
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:6px}
svg{max-width:100%;height:auto}dl{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
@media (max-width:600px){dl{grid-template-columns:minmax(0,1fr)}}
@media print{body{max-width:none}details{display:block}details>summary{display:none}}
`;

/** The whole report as one HTML document. */
export function reportHtml(input: ReportInput): string {
  const body = input.runs.map((r, i) => runSection(r, input.runs.length > 1 ? i + 1 : null)).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${esc(input.title)}</h1>
<p class="muted small">Written by ${esc(input.generator.name)} ${esc(input.generator.version)} at ${esc(input.generator.at)}. k/n with 95% Wilson intervals; differences in percentage points with cluster-robust (CR1) intervals; exact McNemar p on the discordant pairs. Model output and tool text are shown as text.</p>
${input.comparison !== null ? `<h2>Comparison</h2><pre data-testid="comparison">${esc(input.comparison)}</pre>` : ''}
${body}
</body>
</html>
`;
}

function runSection(r: ReportRun, n: number | null): string {
  const id = (s: string) => `r${n ?? ''}-${s}`;
  return `<section data-run="${esc(r.run.id)}">
${n !== null ? `<h2 id="${id('run')}">Run ${n}: ${esc(r.run.name ?? r.run.id)}</h2>` : ''}
${provenance(r)}
<h2 id="${id('table1')}">Table 1</h2>
${table1(r.summary)}
${readings(r.summary)}
${charts(r.summary)}
${r.stopping ? stopping(r.stopping) : ''}
${r.optimisation ? optimisation(r.optimisation, id('optimisation')) : ''}
<h2 id="${id('choices')}">What the model did</h2>
${matrices(r.choices)}
${grid(r)}
${failures(r.failed)}
${r.funnel.length ? funnel(r.funnel) : ''}
<h2 id="${id('spec')}">The experiment</h2>
${conditions(r.experiment.spec)}
</section>`;
}

function provenance(r: ReportRun): string {
  const s = r.run.settings;
  const setting = (k: string) => (s[k] === undefined || s[k] === null ? 'default' : JSON.stringify(s[k]));
  return `<dl class="small" data-testid="provenance">
<dt>Experiment</dt><dd>${esc(r.experiment.name)} (<code>${esc(r.experiment.spec.id)}</code> v${r.experiment.version}, spec sha256 <code>${esc(r.experiment.specHash)}</code>, version id <code>${esc(r.experiment.id)}</code>)</dd>
<dt>Run</dt><dd><code>${esc(r.run.id)}</code>${r.run.name ? ` — ${esc(r.run.name)}` : ''}: ${esc(r.run.statusLabel)}, ${r.run.totalTrials} formal trials, created ${esc(r.run.createdAt)}${r.run.finishedAt ? `, finished ${esc(r.run.finishedAt)}` : ''}</dd>
${r.run.note ? `<dt>Note</dt><dd>${esc(r.run.note)}</dd>` : ''}
<dt>Model</dt><dd>${esc(r.run.provider)} / ${esc(r.run.model)}${r.run.simulated ? ' — <strong>simulated</strong>: a transparent heuristic, not a language model' : ''}${r.run.baseUrl ? ` at <code>${esc(r.run.baseUrl)}</code>` : ''}</dd>
<dt>Settings</dt><dd>temperature ${esc(setting('temperature'))}, max output tokens ${esc(setting('maxOutputTokens'))}, seed ${esc(setting('seed'))}, replicates ${r.experiment.spec.replicates}, order policies ${esc([...new Set(r.experiment.spec.studies.map((x) => x.orderPolicy))].join(', '))}</dd>
</dl>`;
}

function table1(summary: RunSummary): string {
  const keys: string[] = [];
  for (const s of summary.studies) for (const r of s.rows) if (!keys.includes(`${r.scenario} / ${r.locale}`)) keys.push(`${r.scenario} / ${r.locale}`);
  const cell = (s: StudySummary, where: string, c: { baseline: PassCount; treatment: PassCount }) =>
    `<td data-figure="${esc(`${s.study}|${where}`)}" data-baseline="${c.baseline.pass}/${c.baseline.n}" data-treatment="${c.treatment.pass}/${c.treatment.n}">${esc(formatCount(c.baseline))} → ${esc(formatCount(c.treatment))}</td>`;
  const head = `<tr><th>scenario / locale</th>${summary.studies.map((s) => `<th>${esc(s.study)}: ${esc(s.baseline)} → ${esc(s.treatment)}</th>`).join('')}</tr>`;
  const rows = keys.map(
    (k) =>
      `<tr><th>${esc(k)}</th>${summary.studies
        .map((s) => {
          const r = s.rows.find((x) => `${x.scenario} / ${x.locale}` === k);
          return r ? cell(s, k, r) : '<td></td>';
        })
        .join('')}</tr>`,
  );
  const line = (label: string, f: (s: StudySummary) => string, attr: string) =>
    `<tr><th>${label}</th>${summary.studies.map((s) => `<td data-${attr}="${esc(s.study)}">${esc(f(s))}</td>`).join('')}</tr>`;
  return `<div class="scroll"><table data-testid="table1">
<thead>${head}</thead>
<tbody>
${rows.join('\n')}
<tr><th>Total</th>${summary.studies.map((s) => cell(s, 'total', s.total)).join('')}</tr>
${line('pairs improved / same / regressed', (s) => `${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}${s.pairs.incomplete ? ` (${s.pairs.incomplete} incomplete)` : ''}`, 'pairs')}
${line('paired difference (treatment − baseline)', (s) => (s.difference ? formatDifference(s.difference) : '—'), 'difference')}
${line('McNemar exact p / mid-p', (s) => (s.mcnemar ? `${formatP(s.mcnemar.pExact)} / ${formatP(s.mcnemar.pMid)}` : formatP(s.mcnemarP)), 'mcnemar')}
</tbody></table></div>
${summary.studies
  .map((s) => {
    const cats = Object.entries(s.categories).filter(([, v]) => v.baseline || v.treatment);
    return cats.length
      ? `<p class="small"><strong>${esc(s.study)}</strong> failure categories: ${cats.map(([c, v]) => `<code>${esc(c)}</code> ${v.baseline} → ${v.treatment}`).join(', ')}</p>`
      : '';
  })
  .join('')}`;
}

/** The paired reading of each study in words (lib/analysis/reading.ts, the one reading every page shows). */
function readings(summary: RunSummary): string {
  const items = summary.studies.map((s) => {
    const d = s.difference;
    const r = readComparison(
      {
        pairs: d?.pairs ?? s.pairs.improved + s.pairs.same + s.pairs.regressed,
        improved: s.pairs.improved,
        regressed: s.pairs.regressed,
        clusters: d?.clusters ?? 0,
        estimate: d?.estimate ?? null,
        ci95: d?.ci95 ?? null,
        p: s.mcnemar?.pExact ?? s.mcnemarP,
        icc: s.power?.icc ?? null,
      },
      { cluster: s.clusterBy ?? 'case' },
    );
    return `<li data-reading="${esc(s.study)}" data-verdict="${r.verdict}"><span class="reading">${esc(s.study)}</span> (${esc(s.baseline)} → ${esc(s.treatment)}): ${esc(r.text)} — ${s.pairs.improved} pairs improved, ${s.pairs.regressed} regressed.</li>`;
  });
  return `<ul data-testid="readings">${items.join('')}</ul>`;
}

/** Pass rates with Wilson whiskers and the paired difference with its interval, per study, as inline SVG. */
function charts(summary: RunSummary): string {
  const W = 640;
  const rowH = 26;
  const left = 200;
  const plot = W - left - 20;
  const x = (v: number) => left + v * plot;
  const bars: string[] = [];
  let y = 24;
  for (const s of summary.studies)
    for (const [label, c, colour] of [
      [`${s.study}: ${s.baseline}`, s.total.baseline, '#8c959f'],
      [`${s.study}: ${s.treatment}`, s.total.treatment, '#0969da'],
    ] as const) {
      const w = wilson(c.pass, c.n);
      bars.push(`<text x="${left - 6}" y="${y + 13}" text-anchor="end" font-size="12">${esc(label)}</text>`);
      if (w) {
        bars.push(
          `<rect x="${x(0)}" y="${y + 3}" width="${(w.estimate * plot).toFixed(1)}" height="14" fill="${colour}"><title>${esc(`${c.pass}/${c.n} ${pct(w.estimate)}`)}</title></rect>`,
        );
        bars.push(`<line x1="${x(w.low).toFixed(1)}" x2="${x(w.high).toFixed(1)}" y1="${y + 10}" y2="${y + 10}" stroke="#1b1f24" stroke-width="1.5"/>`);
        bars.push(`<text x="${(x(w.high) + 4).toFixed(1)}" y="${y + 14}" font-size="11">${esc(pct(w.estimate))}</text>`);
      }
      y += rowH;
    }
  const axis = [0, 0.25, 0.5, 0.75, 1].map(
    (t) => `<line x1="${x(t)}" x2="${x(t)}" y1="16" y2="${y}" stroke="#d0d7de"/><text x="${x(t)}" y="12" font-size="10" text-anchor="middle">${t * 100}%</text>`,
  );
  const rates = `<svg role="img" aria-label="Pass rates with 95% Wilson intervals" viewBox="0 0 ${W} ${y + 8}" width="${W}" xmlns="http://www.w3.org/2000/svg">${axis.join('')}${bars.join('')}</svg>`;

  // the paired differences on −100 … +100 pts
  const dx = (v: number) => left + ((v + 1) / 2) * plot;
  const marks: string[] = [];
  let fy = 24;
  for (const s of summary.studies) {
    const d = s.difference;
    marks.push(`<text x="${left - 6}" y="${fy + 13}" text-anchor="end" font-size="12">${esc(`${s.study}: ${s.treatment} − ${s.baseline}`)}</text>`);
    if (d && d.estimate !== null) {
      if (d.ci95)
        marks.push(`<line x1="${dx(d.ci95[0]).toFixed(1)}" x2="${dx(d.ci95[1]).toFixed(1)}" y1="${fy + 10}" y2="${fy + 10}" stroke="#1b1f24" stroke-width="2"/>`);
      marks.push(`<circle cx="${dx(d.estimate).toFixed(1)}" cy="${fy + 10}" r="5" fill="#0969da"><title>${esc(formatDifference(d))}</title></circle>`);
    }
    fy += rowH;
  }
  const daxis = [-1, -0.5, 0, 0.5, 1].map(
    (t) =>
      `<line x1="${dx(t)}" x2="${dx(t)}" y1="16" y2="${fy}" stroke="${t === 0 ? '#cf222e' : '#d0d7de'}"/><text x="${dx(t)}" y="12" font-size="10" text-anchor="middle">${t > 0 ? '+' : ''}${t * 100}</text>`,
  );
  const diffs = `<svg role="img" aria-label="Paired differences in percentage points with 95% CR1 intervals" viewBox="0 0 ${W} ${fy + 8}" width="${W}" xmlns="http://www.w3.org/2000/svg">${daxis.join('')}${marks.join('')}</svg>`;
  return `<h3>Pass rates</h3><div class="scroll" data-testid="chart-rates">${rates}</div><h3>Paired differences (pts)</h3><div class="scroll" data-testid="chart-differences">${diffs}</div>`;
}

/** The loop this run is a stage of, as its Markdown record (docs/optimise.md), shown as text. */
function optimisation(o: NonNullable<ReportRun['optimisation']>, anchor: string): string {
  return `<h2 id="${anchor}">Improving descriptions: the ${o.stage} run of record ${esc(o.recordId)}</h2>
<p class="small">This run is the ${o.stage === 'select' ? 'select stage (every candidate against the baseline on the select split)' : 'confirmation (the frozen winner against the baseline on the sealed split)'} of the record below, as stored.</p>
<pre data-testid="optimisation">${esc(o.markdown)}</pre>`;
}

function stopping(s: StoppingReport): string {
  return `<h3>Stopping when decided</h3><p class="small">α ${s.alpha}${s.seed !== null ? `, seed ${s.seed}` : ''}: ${s.trialsNotSent} of ${s.trialsPlanned} planned trials not sent (${esc(s.intervalLabel)}).</p>
<ul class="small">${s.studies.map((x) => `<li><strong>${esc(x.study)}</strong>: ${esc(x.headline ?? `ran every one of its ${x.plannedPairs} pairs`)}</li>`).join('')}</ul>`;
}

function matrices(c: ExportChoices): string {
  return c.matrix
    .map(
      (m) =>
        `<h3>${esc(m.study)} · ${esc(m.condition)}: expected × chosen</h3><div class="scroll"><table class="small"><thead><tr><th>expected ↓ chosen →</th>${m.chosen.map((x) => `<th>${esc(x)}</th>`).join('')}</tr></thead><tbody>${m.expected
          .map(
            (e, i) =>
              `<tr><th>${esc(e)}</th>${m.counts[i].map((n, j) => `<td class="${n === 0 ? 'muted' : m.chosen[j] === e ? 'pass' : 'fail'}">${n}</td>`).join('')}</tr>`,
          )
          .join('')}</tbody></table></div>`,
    )
    .join('');
}

function grid(r: ReportRun): string {
  const conditions = [...new Set(r.grid.map((c) => c.condition))];
  const rows = new Map<string, Map<string, Choice[]>>();
  for (const c of r.grid) {
    const key = `${c.study} · ${c.scenario} · ${c.locale} · ${c.caseId}`;
    if (!rows.has(key)) rows.set(key, new Map());
    const byCondition = rows.get(key)!;
    byCondition.set(c.condition, [...(byCondition.get(c.condition) ?? []), c]);
  }
  const chip = (c: Choice) =>
    `<span class="${c.status === 'passed' ? 'pass' : c.status === 'failed' ? 'fail' : 'other'}" title="${esc(`order ${orderNumber(c.orderIndex)}, replicate ${c.replicate}: ${c.status}`)}">${esc(c.chosen)}</span>`;
  const cut = r.grid.length < r.gridTotal ? `<p class="small muted">The first ${r.grid.length} of ${r.gridTotal} trials; every trial is in the exports.</p>` : '';
  return `<h3>Each case, each condition</h3>${cut}<div class="scroll"><table class="small" data-testid="grid"><thead><tr><th>case</th>${conditions.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${[
    ...rows,
  ]
    .map(([k, byCondition]) => `<tr><th>${esc(k)}</th>${conditions.map((c) => `<td>${(byCondition.get(c) ?? []).map(chip).join(' ')}</td>`).join('')}</tr>`)
    .join('')}</tbody></table></div>`;
}

function failures(rows: ReportFailure[]): string {
  if (!rows.length) return '';
  const quote = (t: string | null) => (t === null ? '<span class="muted">no text</span>' : `<pre>${esc(t.length > QUOTE_MAX ? `${t.slice(0, QUOTE_MAX)}…` : t)}</pre>`);
  return `<h3>Failed trials (${rows.length === FAILED_MAX ? `the first ${FAILED_MAX}` : rows.length})</h3><div class="scroll"><table class="small" data-testid="failures"><thead><tr><th>trial</th><th>expected</th><th>chosen</th><th>the model's text</th><th>failed checks</th></tr></thead><tbody>${rows
    .map(
      (f) =>
        `<tr><td><code>${esc(f.trialId)}</code><br>${esc(`${f.study} · ${f.caseId} · ${f.condition}`)}</td><td>${esc(f.expected ?? '—')}</td><td>${esc(f.chosen)}</td><td>${quote(f.text)}</td><td>${f.failedChecks.map((c) => `<code>${esc(c)}</code>`).join(' ')}</td></tr>`,
    )
    .join('')}</tbody></table></div>`;
}

function funnel(rows: readonly Record<string, unknown>[]): string {
  const stage = (v: unknown) => {
    const s = v as { k?: number; n?: number } | null | undefined;
    return s && typeof s.n === 'number' && s.n > 0 ? `${s.k}/${s.n} ${pct((s.k ?? 0) / s.n)}` : '—';
  };
  return `<h2>Visibility funnel</h2><div class="scroll"><table class="small"><thead><tr><th>study</th><th>discovery</th><th>N</th><th>condition</th><th>visible</th><th>chosen | visible</th><th>arguments | chosen</th><th>result</th></tr></thead><tbody>${rows
    .map(
      (r) =>
        `<tr><td>${esc(r.study)}</td><td>${esc(r.discovery)}</td><td>${esc(r.catalogSize)}</td><td>${esc(r.condition)}</td><td>${esc(stage(r.recallAtK))}</td><td>${esc(stage(r.selectedGivenVisible))}</td><td>${esc(stage(r.argumentsGivenSelected))}</td><td>${esc(stage(r.result))}</td></tr>`,
    )
    .join('')}</tbody></table></div>`;
}

function conditions(spec: ExperimentSpec): string {
  return spec.studies
    .map(
      (s) => `<h3>${esc(s.title)} (<code>${esc(s.id)}</code>, ${esc(s.kind)}, ${s.cases.length} cases, order policy ${esc(s.orderPolicy)})</h3>
<ul class="small">${s.conditions
        .map(
          (
            c,
          ) => `<li><strong>${esc(c.label)}</strong> <code>${esc(c.id)}</code>${c.baseline ? ' — baseline' : ''}${c.variant ? ` — variant <code>${esc(c.variant.kind)}</code> of <code>${esc(c.variant.of)}</code>` : ''}
<details><summary>tool definitions</summary>${Object.entries(c.tools)
            .flatMap(([scenario, byLocale]) =>
              Object.entries(byLocale).map(
                ([locale, defs]) =>
                  `<p><code>${esc(scenario)}</code> / <code>${esc(locale)}</code></p><table><tbody>${defs.map((d) => `<tr><th><code>${esc(d.name)}</code></th><td>${esc(d.description)}</td></tr>`).join('')}</tbody></table>`,
              ),
            )
            .join('')}</details></li>`,
        )
        .join('')}</ul>`,
    )
    .join('');
}
