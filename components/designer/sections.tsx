'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { fieldId, useDesigner } from './context';
import type { DSpec } from './draft-types';

// The designer's sections (docs/designer.md "Finding your way"): study → condition → scenario × locale, and each
// case, as collapsible sections whose content is rendered only while open — a large draft opens collapsed, so the
// page is short and quick to open; a small one opens expanded. The contents (DesignerContents) jump to any
// section or tool description: they open every section on the way, then scroll to it and focus it.

/** A draft is large when it has more definitions or cases than a screen or two shows: it opens collapsed. */
export const LARGE_DRAFT = { definitions: 16, cases: 16 } as const;

export function isLargeDraft(d: DSpec): boolean {
  let definitions = 0;
  let cases = 0;
  for (const s of d.studies) {
    cases += s.cases.length;
    for (const c of s.conditions) for (const byLocale of Object.values(c.tools)) for (const defs of Object.values(byLocale)) definitions += defs.length;
  }
  return definitions > LARGE_DRAFT.definitions || cases > LARGE_DRAFT.cases;
}

export const sectionKey = {
  study: (si: number) => `study:${si}`,
  condition: (si: number, ci: number) => `condition:${si}:${ci}`,
  catalog: (si: number, ci: number, scenario: string, locale: string) => `catalog:${si}:${ci}:${scenario}:${locale}`,
  case: (si: number, ki: number) => `case:${si}:${ki}`,
};

/** The DOM id of a tool definition's description field. */
const descriptionFieldId = (si: number, ci: number, scenario: string, locale: string, di: number) =>
  fieldId(`studies.${si}.conditions.${ci}.tools.${scenario}.${locale}.${di}.description`);

interface SectionsApi {
  isOpen(key: string): boolean;
  setOpen(key: string, open: boolean): void;
  /** Open these sections, then scroll to the element with this id and focus it. */
  jump(keys: readonly string[], targetId: string): void;
}

const SectionsContext = createContext<SectionsApi | null>(null);

export function useSections(): SectionsApi {
  const api = useContext(SectionsContext);
  if (!api) throw new Error('useSections outside the designer');
  return api;
}

export function SectionsProvider({ expanded, children }: { expanded: boolean; children: ReactNode }) {
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(new Map());
  // the element to scroll to once the render that opens its sections has happened; a ref, read by the effect
  const target = useRef<string | null>(null);
  const [jumps, setJumps] = useState(0);
  const setOpen = useCallback(
    (key: string, open: boolean) =>
      setOverrides((m) => {
        if ((m.get(key) ?? expanded) === open) return m;
        const next = new Map(m);
        next.set(key, open);
        return next;
      }),
    [expanded],
  );
  const jump = useCallback((keys: readonly string[], targetId: string) => {
    setOverrides((m) => {
      const next = new Map(m);
      for (const k of keys) next.set(k, true);
      return next;
    });
    target.current = targetId;
    setJumps((n) => n + 1);
  }, []);
  // after the render that opened the sections: the target exists, and is scrolled to and focused
  useEffect(() => {
    if (!target.current) return;
    const el = document.getElementById(target.current);
    if (!el) return;
    target.current = null;
    el.scrollIntoView({ block: 'center' });
    el.focus({ preventScroll: true });
  }, [jumps, overrides]);
  const api = useMemo<SectionsApi>(() => ({ isOpen: (key) => overrides.get(key) ?? expanded, setOpen, jump }), [overrides, expanded, setOpen, jump]);
  return <SectionsContext.Provider value={api}>{children}</SectionsContext.Provider>;
}

/**
 * A collapsible section: its content is rendered only while open. The summary counts the draft's problems
 * under `path` (the paths of the check's issues), so a collapsed section with an error says so.
 */
export function Section({
  sectionKey: key,
  id,
  path,
  summary,
  className = 'panel',
  testId,
  label,
  children,
}: {
  sectionKey: string;
  id?: string;
  path?: string;
  summary: ReactNode;
  className?: string;
  testId?: string;
  label?: string;
  children: ReactNode;
}) {
  const { isOpen, setOpen } = useSections();
  const { issues } = useDesigner();
  const open = isOpen(key);
  const problems = path ? issues.filter((i) => i.path === path || i.path.startsWith(`${path}.`)).length : 0;
  return (
    <details
      id={id}
      tabIndex={id ? -1 : undefined}
      open={open}
      className={className}
      data-testid={testId}
      aria-label={label}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        if (now !== open) setOpen(key, now);
      }}
    >
      <summary>
        {summary}
        {!open && problems > 0 && (
          <span className="badge bad" data-testid="section-problems">
            {' '}
            {problems} problem{problems === 1 ? '' : 's'}
          </span>
        )}
      </summary>
      {open ? children : null}
    </details>
  );
}

/** The designer's contents: every study, condition, catalog and tool definition, and the cases, as jump links. */
export function DesignerContents() {
  const { draft } = useDesigner();
  const { jump } = useSections();
  const link = (keys: readonly string[], targetId: string, text: ReactNode, label?: string) => (
    <a
      href={`#${targetId}`}
      aria-label={label}
      onClick={(e) => {
        e.preventDefault();
        jump(keys, targetId);
      }}
    >
      {text}
    </a>
  );
  return (
    <nav className="panel designer-contents" aria-label="Designer contents">
      <details open>
        <summary>
          <strong>Contents</strong>
        </summary>
        <ul className="small">
          <li>{link([], 'designer-overview', 'Overview')}</li>
          <li>{link([], 'designer-scenarios', 'Scenarios and their tools')}</li>
          {draft.studies.map((s, si) => (
            <li key={si}>
              {link([sectionKey.study(si)], `designer-study-${si}`, <span className="mono">{s.id}</span>)} <span className="muted">({s.kind})</span>
              <ul>
                {s.conditions.map((c, ci) => (
                  <li key={ci}>
                    {link([sectionKey.study(si), sectionKey.condition(si, ci)], `designer-condition-${si}-${ci}`, <span className="mono">{c.id}</span>)}
                    {c.baseline ? <span className="muted"> (baseline)</span> : null}
                    <ul>
                      {Object.entries(c.tools).flatMap(([scenario, byLocale]) =>
                        Object.entries(byLocale).map(([locale, defs]) => {
                          const keys = [sectionKey.study(si), sectionKey.condition(si, ci), sectionKey.catalog(si, ci, scenario, locale)];
                          return (
                            <li key={`${scenario}/${locale}`}>
                              <span className="muted">
                                {scenario}/{locale}:
                              </span>{' '}
                              {defs.map((d, di) => (
                                <span key={di}>
                                  {di > 0 ? ', ' : null}
                                  {link(
                                    keys,
                                    descriptionFieldId(si, ci, scenario, locale, di),
                                    <span className="mono">{d.tool}</span>,
                                    `Description of ${d.tool} (${c.id}, ${scenario}/${locale})`,
                                  )}
                                </span>
                              ))}
                            </li>
                          );
                        }),
                      )}
                    </ul>
                  </li>
                ))}
                <li>{link([sectionKey.study(si)], `designer-cases-${si}`, `Cases (${s.cases.length})`)}</li>
              </ul>
            </li>
          ))}
          <li>{link([], 'designer-prechecks', 'Pre-checks')}</li>
          <li>{link([], 'designer-json', 'JSON view')}</li>
        </ul>
      </details>
    </nav>
  );
}
