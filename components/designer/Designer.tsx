'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { DraftCheck } from '@/lib/experiments/drafts';
import type { PriceTable } from '@/lib/design/cost';
import type { DesignerFieldSpec } from '@/lib/scoring/fields/types';
import { DesignerContext, type DesignerApi } from './context';
import { DesignerContents, Section, SectionsProvider, isLargeDraft, sectionKey } from './sections';
import { normalize, type DSpec } from './draft-types';
import { OverviewSection, PrechecksSection, ScenariosSection, StudyFields } from './StructureSections';
import { ConditionsSection } from './ConditionsSection';
import { CasesSection } from './CasesSection';
import { JsonEditor } from './JsonEditor';
import { Preview } from './Preview';
import { discardDraftAction, freezeDraftAction, saveDraftAction, type FormState } from './actions';

/**
 * The experiment designer: a structured editor over the server-side draft. Every change is saved shortly
 * after it is made (a reload loses nothing) and comes back checked by the import's own parse: errors at
 * their fields, and — once the draft is valid — the live preview and the linter's findings.
 */
export function Designer({
  slug,
  initial,
  initialCheck,
  prices,
  baseVersion,
  nextVersion,
  fields,
}: {
  slug: string;
  initial: Record<string, unknown>;
  initialCheck: DraftCheck;
  prices: PriceTable;
  baseVersion: number | null;
  nextVersion: number;
  /** The check fields' designer metadata (lib/scoring/fields `designerFields()`, read by the page). */
  fields: readonly DesignerFieldSpec[];
}) {
  const [draft, setDraft] = useState<DSpec>(() => normalize(initial));
  // a large draft opens collapsed (sections.tsx); decided once, when the page opens
  const [expanded] = useState(() => !isLargeDraft(normalize(initial)));
  const [check, setCheck] = useState<DraftCheck>(initialCheck);
  const [saveState, setSaveState] = useState<'saved' | 'saving' | 'error'>('saved');
  const [showJson, setShowJson] = useState(false);
  const [freeze, setFreeze] = useState<FormState | null>(null);
  const [freezing, setFreezing] = useState(false);
  const seq = useRef(0);
  const first = useRef(true);

  const update = useCallback((fn: (d: DSpec) => void) => {
    setDraft((d) => {
      const next = structuredClone(d);
      fn(next);
      return next;
    });
  }, []);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const mine = ++seq.current;
    setSaveState('saving');
    const t = setTimeout(() => {
      saveDraftAction(slug, draft).then(
        (r) => {
          if (mine !== seq.current) return;
          setCheck(r.check);
          setSaveState('saved');
        },
        () => mine === seq.current && setSaveState('error'),
      );
    }, 350);
    return () => clearTimeout(t);
  }, [draft, slug]);

  const api: DesignerApi = { draft, update, issues: check.issues, findings: check.findings, fields };
  const doFreeze = async (run: boolean) => {
    setFreezing(true);
    setFreeze(await freezeDraftAction(slug, run));
    setFreezing(false);
  };

  return (
    <DesignerContext.Provider value={api}>
      <SectionsProvider expanded={expanded}>
        <div className="spread">
          <h1>Designer: {draft.name || draft.id}</h1>
          <span className={`badge ${saveState === 'saved' ? 'good' : saveState === 'error' ? 'bad' : 'warn'}`} data-testid="save-state" role="status">
            {saveState === 'saved' ? 'draft saved' : saveState === 'saving' ? 'saving…' : 'not saved: retry by editing'}
          </span>
        </div>
        <p className="small muted">
          Draft of <span className="mono">{slug}</span> {baseVersion ? `(started from version ${baseVersion})` : '(new experiment)'}. Saved as you go; “Save as version”
          freezes it — a frozen version never changes, and runs keep the version they ran.
        </p>
        <div className="grid-2" style={{ alignItems: 'start' }}>
          <div>
            <div className="panel" data-testid="draft-issues">
              {check.issues.length === 0 ? (
                <p className="small" style={{ margin: 0 }}>
                  <span className="badge good">valid</span> the draft passes the same checks as an import.
                </p>
              ) : (
                <details>
                  <summary>
                    <span className="badge bad">
                      {check.issues.length} problem{check.issues.length === 1 ? '' : 's'}
                    </span>{' '}
                    — each is shown at its field too
                  </summary>
                  <IssueList issues={check.issues} />
                </details>
              )}
              <div className="row" style={{ marginTop: 8 }}>
                <button type="button" className="primary" disabled={freezing || saveState !== 'saved'} onClick={() => doFreeze(false)}>
                  Save as version {nextVersion}
                </button>
                <button type="button" disabled={freezing || saveState !== 'saved'} onClick={() => doFreeze(true)}>
                  Save and run
                </button>
                <button type="button" className="danger" onClick={() => confirm('Discard this draft? Stored versions stay.') && discardDraftAction(slug)}>
                  Discard draft
                </button>
              </div>
              {freeze?.message && (
                <div className="errors" role="alert" data-testid="freeze-errors">
                  <strong>{freeze.message}</strong>
                  <IssueList issues={freeze.issues} />
                </div>
              )}
            </div>
            <DesignerContents />
            <OverviewSection />
            <ScenariosSection />
            <section className="panel" aria-label="Studies" id="designer-studies">
              <h2 style={{ marginTop: 0 }}>Studies</h2>
              {draft.studies.map((s, si) => (
                <Section
                  key={si}
                  sectionKey={sectionKey.study(si)}
                  id={`designer-study-${si}`}
                  path={`studies.${si}`}
                  testId={`study-${s.id}`}
                  summary={
                    <>
                      <span className="mono">{s.id}</span> ({s.kind})
                    </>
                  }
                >
                  <StudyFields study={s} si={si} />
                  <ConditionsSection study={s} si={si} />
                  <CasesSection study={s} si={si} />
                  <button type="button" className="danger" onClick={() => update((d) => void d.studies.splice(si, 1))}>
                    Remove study
                  </button>
                </Section>
              ))}
              <button
                type="button"
                onClick={() =>
                  update((d) =>
                    d.studies.push({
                      id: d.studies.length ? `study-${d.studies.length + 1}` : 'selection',
                      kind: 'selection',
                      title: 'Tool selection',
                      orderPolicy: 'reverse-swap',
                      protocol: { system: {}, markers: { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' }, labels: [] },
                      conditions: [],
                      cases: [],
                    }),
                  )
                }
              >
                Add study
              </button>
            </section>
            <PrechecksSection />
            <section className="panel" aria-label="JSON view" id="designer-json" tabIndex={-1}>
              <h2 style={{ marginTop: 0 }}>JSON view</h2>
              <p className="small muted">The whole draft as JSON: edits here change the same draft.</p>
              <button type="button" onClick={() => setShowJson((x) => !x)}>
                {showJson ? 'Hide JSON' : 'Show JSON'}
              </button>
              {showJson && (
                <JsonEditor label="Draft JSON" value={draft} height="480px" testId="draft-json" onValid={(v) => setDraft(normalize(v as Record<string, unknown>))} />
              )}
            </section>
          </div>
          <Preview slug={slug} plan={check.plan} prices={prices} onPrices={(c) => c && setCheck(c)} />
        </div>
      </SectionsProvider>
    </DesignerContext.Provider>
  );
}

/** Problems of a draft, each with its path. */
function IssueList({ issues }: { issues: readonly { path: string; message: string }[] }) {
  return (
    <ul className="small">
      {issues.map((i, k) => (
        <li key={k}>
          <code>{i.path}</code>: {i.message}
        </li>
      ))}
    </ul>
  );
}
