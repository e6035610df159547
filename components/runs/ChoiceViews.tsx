import Link from 'next/link';
import { caseDiffers, type ChoiceGridSection, type ChoiceMatrix, type ChoicePositions } from '@/lib/analysis/choices';
import type { GridPage } from '@/lib/runs/choices';
import { urls } from '@/lib/urls';
import { formatInt, orderLabel, orderNumber } from '../format';

// What the model did (docs/results.md#what-the-model-did): the grid of cases × conditions for one study × scenario × locale (each cell
// a trial's decision per order and replicate, coloured by its verdict, linking to the trial), the expected ×
// chosen matrix and the positions of the chosen tool per condition. Everything is text: tool names are the
// model-facing names the request carried.

export interface ChoiceSectionRef {
  study: string;
  scenario: string;
  locale: string;
}

export const sectionParam = (s: ChoiceSectionRef) => `${s.study}|${s.scenario}|${s.locale}`;

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

export function ChoiceGrid({
  runId,
  sections,
  current,
  grid,
  sectionHref,
  page,
  pageHref,
  changedOnly = false,
  changedHref,
  changedCases,
}: {
  runId: string;
  /** Only the cases whose conditions did different things (in some order and replicate). */
  changedOnly?: boolean;
  /** Where the "changed rows only" switch goes, on or off (omitted: no switch). */
  changedHref?: (on: boolean) => string;
  /** The cases that changed, when another view decides (the compare page: across its runs); default: within this grid. */
  changedCases?: ReadonlySet<string>;
  /** Which of the section's cases this page shows (a large section is shown a page of cases at a time). */
  page?: GridPage | null;
  /** Where the link to the page starting at case `from` goes (default: this run's page). */
  pageHref?: (from: number) => string;
  /** Omitted: no section links (the compare page draws them once above its grids). */
  sections?: ChoiceSectionRef[];
  current: ChoiceSectionRef;
  grid: ChoiceGridSection | null;
  /** Where a section link goes (default: this run's page). */
  sectionHref?: (s: ChoiceSectionRef) => string;
}) {
  const shows = (line: ChoiceGridSection['cases'][number]) => (changedCases ? changedCases.has(line.caseId) : caseDiffers(line.cells));
  return (
    <section data-testid="choice-grid" data-run={runId}>
      {sections && (
        <ChoiceSections
          sections={sections}
          current={current}
          href={sectionHref ?? ((s) => urls.run(runId, { choices: sectionParam(s), choicesChanged: changedOnly ? '1' : null }, '#what-the-model-did'))}
        />
      )}
      {page && page.total > page.size && (
        <GridPager
          page={page}
          href={
            pageHref ??
            ((from) => urls.run(runId, { choices: sectionParam(current), choicesFrom: String(from), choicesChanged: changedOnly ? '1' : null }, '#what-the-model-did'))
          }
        />
      )}
      {grid && changedHref && (
        <ChangedRowsSwitch
          on={changedOnly}
          href={changedHref}
          shown={grid.cases.filter((l) => shows(l)).length}
          total={grid.cases.length}
          paged={!!page && page.total > page.size}
        />
      )}
      {!grid ? (
        <p className="muted small">No trials in this section.</p>
      ) : (
        <div className="table-scroll">
          <table className="choice-grid">
            <thead>
              <tr>
                <th scope="col">case (expected)</th>
                {grid.conditions.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {grid.cases
                .filter((line) => !changedOnly || shows(line))
                .map((line) => (
                  <tr key={line.caseId} data-case={line.caseId}>
                    <th scope="row">
                      {line.caseId}
                      <div className="muted small">{line.expected ?? '—'}</div>
                    </th>
                    {line.cells.map((cell, i) => (
                      <td key={grid.conditions[i]} data-condition={grid.conditions[i]}>
                        {cell.map((c) => (
                          <Link
                            key={c.trialId}
                            href={urls.trial(runId, c.trialId)}
                            className={`badge choice status-${c.status}`}
                            data-testid="choice-cell"
                            data-trial={c.trialId}
                            data-chosen={c.chosen}
                            data-tool={c.chosenToolId ?? undefined}
                            data-order={orderLabel(c.orderIndex)}
                            title={`order ${orderNumber(c.orderIndex)}, replicate ${c.replicate}: ${c.status}${c.position ? ` · listed ${ordinal(c.position)} of ${c.toolsSent}` : ''}`}
                          >
                            {orderLabel(c.orderIndex)}
                            {c.replicate > 1 || cell.some((x) => x.replicate > 1) ? `·r${c.replicate}` : ''} {c.chosen}
                          </Link>
                        ))}
                      </td>
                    ))}
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="small muted">
        Each chip is one trial: its candidate order (o1, o2, …) and replicate, then what the model did — the tool it called first by the name it was sent, CLARIFY, STOP,
        a reported label, text, or no answer. Green passed, red failed, amber untested or unresolved.
      </p>
    </section>
  );
}

/** The "changed rows only" switch, and while on, how many of the cases it shows. */
export function ChangedRowsSwitch({
  on,
  href,
  shown,
  total,
  paged,
  across = 'conditions',
}: {
  on: boolean;
  href: (on: boolean) => string;
  shown: number;
  total: number;
  paged: boolean;
  /** Who did different things: the conditions (a run), or the runs' conditions (the compare page). */
  across?: string;
}) {
  return (
    <p className="row small" data-testid="changed-rows">
      <Link href={href(!on)} scroll={false} aria-pressed={on} role="button" className="button" data-testid="changed-rows-toggle">
        {on ? '☑' : '☐'} Changed rows only
      </Link>
      {on && (
        <span data-testid="changed-rows-count">
          showing {formatInt(shown)} of {formatInt(total)} cases{paged ? ' on this page' : ''}: those whose {across} did different things in some order
        </span>
      )}
    </p>
  );
}

/** Which cases of the section the grid shows, with links to the previous and next page of cases. */
export function GridPager({ page, href }: { page: GridPage; href: (from: number) => string }) {
  const last = page.from + page.caseIds.length;
  return (
    <nav className="row small" aria-label="Grid cases" data-testid="choice-grid-pager">
      <span>
        cases {formatInt(page.from + 1)}–{formatInt(last)} of {formatInt(page.total)}
      </span>
      {page.from > 0 && (
        <Link href={href(Math.max(0, page.from - page.size))} scroll={false} rel="prev">
          ‹ previous
        </Link>
      )}
      {last < page.total && (
        <Link href={href(last)} scroll={false} rel="next">
          next ›
        </Link>
      )}
    </nav>
  );
}

/** Links to the grid's sections (study × scenario × locale); the current one in bold. */
export function ChoiceSections({ sections, current, href }: { sections: ChoiceSectionRef[]; current: ChoiceSectionRef; href: (s: ChoiceSectionRef) => string }) {
  return (
    <nav className="row small" aria-label="Grid section">
      {sections.map((s) =>
        sectionParam(s) === sectionParam(current) ? (
          <strong key={sectionParam(s)} aria-current="true">
            {s.study} · {s.scenario} · {s.locale}
          </strong>
        ) : (
          <Link key={sectionParam(s)} href={href(s)} scroll={false}>
            {s.study} · {s.scenario} · {s.locale}
          </Link>
        ),
      )}
    </nav>
  );
}

export function ChoiceMatrices({ matrices }: { matrices: ChoiceMatrix[] }) {
  if (matrices.length === 0) return null;
  return (
    <div className="grid-2" data-testid="choice-matrices">
      {matrices.map((m) => (
        <div key={`${m.study}|${m.condition}`} data-testid="choice-matrix" data-study={m.study} data-condition={m.condition}>
          <h3>
            {m.study} · {m.condition}: expected × chosen
          </h3>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">expected ↓ / chosen →</th>
                  {m.chosen.map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {m.expected.map((e, i) => (
                  <tr key={e}>
                    <th scope="row">{e}</th>
                    {m.counts[i].map((n, j) => (
                      <td key={m.chosen[j]} className={n === 0 ? 'muted' : e === m.chosen[j] ? 'good' : 'bad'} data-expected={e} data-chosen={m.chosen[j]}>
                        {n}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </div>
  );
}

export function ChoicePositionTable({ positions }: { positions: ChoicePositions[] }) {
  if (positions.length === 0) return null;
  const width = Math.max(...positions.map((p) => p.byPosition.length), 1);
  return (
    <div className="table-scroll" data-testid="choice-positions">
      <table>
        <thead>
          <tr>
            <th scope="col">study · condition</th>
            {Array.from({ length: width }, (_, k) => (
              <th key={k} scope="col">
                chose the {ordinal(k + 1)} listed
              </th>
            ))}
            <th scope="col">no listed tool</th>
            <th scope="col">trials</th>
          </tr>
        </thead>
        <tbody>
          {positions.map((p) => (
            <tr key={`${p.study}|${p.condition}`} data-study={p.study} data-condition={p.condition}>
              <th scope="row">
                {p.study} · {p.condition}
              </th>
              {Array.from({ length: width }, (_, k) => (
                <td key={k} data-position={k + 1}>
                  {p.byPosition[k] ?? 0}
                </td>
              ))}
              <td data-position="none">{p.noListedTool}</td>
              <td>{p.trials}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
