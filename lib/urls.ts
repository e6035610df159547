// The one URL builder: every page, route and API path the UI links to, fetches or redirects to. Framework-free
// (plain strings), so pages, components, server actions and tests share it; every id is URI-encoded here.

const e = encodeURIComponent;

/** `?a=1&b=2` from the entries given (absent values left out); '' when none. */
function query(params: Record<string, string | null | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) p.set(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export const urls = {
  home: () => '/',
  experiment: (id: string, params: Record<string, string | null | undefined> = {}) => `/experiments/${e(id)}${query(params)}`,
  experimentVersions: (id: string) => `/experiments/${e(id)}/versions`,
  /** Improve descriptions: the form and the optimisation records of an experiment (`record`: the one opened). */
  experimentImprove: (id: string, params: Record<string, string | null | undefined> = {}) => `/experiments/${e(id)}/improve${query(params)}`,
  designer: (slug: string) => `/designer/${e(slug)}`,

  /** Trace imports: the list and the import form; one import (its report and review queue); one candidate. */
  cases: () => '/cases',
  traceImport: (id: string) => `/cases/${e(id)}`,
  candidate: (importId: string, seq: number) => `/cases/${e(importId)}/${seq}`,

  /** The run page (`params`: e.g. the choice section shown), with an optional anchor. */
  run: (id: string, params: Record<string, string | null | undefined> = {}, hash = '') => `/runs/${e(id)}${query(params)}${hash}`,
  /** The review page (`show`: its filter; `page`: its page). */
  runReview: (id: string, params: Record<string, string | null | undefined> = {}) => `/runs/${e(id)}/review${query(params)}`,
  trial: (runId: string, trialId: string) => `/runs/${e(runId)}/trials/${e(trialId)}`,
  /** A baseline trial and its treatment side by side (`show`: the review list's filter, kept). */
  trialPair: (runId: string, baselineId: string, treatmentId: string, show: string | null = null) =>
    `/runs/${e(runId)}/pairs/${e(baselineId)}/${e(treatmentId)}${query({ show })}`,
  /** Runs side by side (`ids` in the order given: the first is the reference). */
  compare: (ids: readonly string[]) => `/runs/compare?ids=${ids.map(e).join(',')}`,
  /** The compare page with more of its state (cluster, the two runs of the grid, a choice section) and an anchor. */
  compareWith: (params: Record<string, string | null | undefined>, hash = '') => `/runs/compare${query(params)}${hash}`,
  /** The trial pairs of one cell and kind of change, side by side. */
  comparePairs: (p: { a: string; b: string; study: string; condition: string; change: string }) => `/runs/compare/pairs${query(p)}`,

  api: {
    run: (id: string) => `/api/runs/${e(id)}`,
    /** An experiment's optimisation records as JSON (`record`: that one alone). */
    optimisations: (experimentId: string, record: string | null = null, more: { definitions?: string; format?: 'md' | 'tex' } = {}) =>
      `/api/experiments/${e(experimentId)}/optimisations${query({ record, ...more })}`,
    runProgress: (id: string) => `/api/runs/${e(id)}/progress`,
    runTrials: (id: string, q: string) => `/api/runs/${e(id)}/trials?${q}`,
    /** A download of lib/runs/export.ts EXPORT_FORMATS by its name. */
    runExport: (id: string, format: string) => `/api/runs/${e(id)}/export/${format}`,
    /** The one-file HTML report of one run or of runs side by side. */
    runReport: (ids: readonly string[], override: string | null = null) => `/api/runs/report?ids=${ids.map(e).join(',')}${override ? `&override=${e(override)}` : ''}`,
    trialTcc: (runId: string, trialId: string, part: 'card' | 'observations') => `/api/runs/${e(runId)}/trials/${e(trialId)}/tcc?part=${part}`,
  },
} as const;
