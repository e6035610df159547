'use client';

import { useActionState, useState } from 'react';
import type { ActionState } from './actions';
import { RUN_BUDGET_FIELDS, RUN_FORM_FIELDS } from './run-form';
import { IssueList } from '../IssueList';
import { keepValues } from '../keep-values';
import { DocLink } from '../DocLink';

export interface ProviderOption {
  id: string;
  label: string;
  simulated: boolean;
  defaultModel: string;
  /** Models offered by name (the simulator's two); others may be typed. */
  models: readonly { id: string; label: string }[];
  available: boolean;
  reason?: string;
  /** Where its requests go unless the run picks an allowed base URL; null: nowhere (simulator) or not configured. */
  destination: string | null;
  allowedBaseUrls: string[];
  /** It has a batch API (the Batch switch is shown). */
  batch?: boolean;
}

export interface RunFormDefaults {
  provider: string;
  model: string;
  values: Record<(typeof RUN_FORM_FIELDS)[number]['name'], number | null>;
}

const FIELD_PATHS = new Set<string>([
  'provider',
  'model',
  'baseUrl',
  'targets',
  'confirmRequests',
  'stopPrecision',
  'batch',
  ...RUN_FORM_FIELDS.map((f) => f.name),
  ...RUN_BUDGET_FIELDS.map((f) => f.name),
]);

/** The Run form: settings default to RunSettings' defaults; unavailable providers are shown disabled with the reason. */
export function RunForm({
  action,
  providers,
  defaults,
}: {
  action: (prev: ActionState, form: FormData) => Promise<ActionState>;
  providers: ProviderOption[];
  defaults: RunFormDefaults;
}) {
  const [state, formAction, pending] = useActionState(action, { issues: [], message: null });
  const [provider, setProvider] = useState(defaults.provider);
  const [model, setModel] = useState(defaults.model);
  const current = providers.find((p) => p.id === provider);
  // "Also run with": every named model (or default model) of an available provider, except the one chosen
  const alsoTargets = providers
    .filter((p) => p.available)
    .flatMap((p) =>
      (p.models.length > 0 ? p.models : [{ id: p.defaultModel, label: p.defaultModel }]).map((m) => ({
        value: `${p.id}:${m.id}`,
        label: `${p.id} / ${m.id}`,
        hint: m.label === m.id ? '' : m.label,
      })),
    )
    .filter((t) => t.value !== `${provider}:${model}`);
  const errorOf = (name: string) =>
    state.issues
      .filter((i) => i.path === name)
      .map((i) => i.message)
      .join('; ');

  function changeProvider(id: string) {
    setProvider(id);
    const next = providers.find((p) => p.id === id);
    if (next) setModel(next.defaultModel);
  }

  return (
    <form action={formAction} onSubmit={keepValues(formAction)} aria-label="Run settings" data-testid="run-form">
      <div className="form-grid">
        <div className="field">
          <label htmlFor="run-provider">Provider</label>
          <select id="run-provider" name="provider" value={provider} onChange={(e) => changeProvider(e.target.value)}>
            {providers.map((p) => (
              <option key={p.id} value={p.id} disabled={!p.available}>
                {p.label}
                {!p.available && p.reason ? ` — unavailable: ${p.reason}` : ''}
              </option>
            ))}
          </select>
          {errorOf('provider') && <div className="field-error">{errorOf('provider')}</div>}
        </div>
        <div className="field">
          <label htmlFor="run-model">Model</label>
          <input id="run-model" name="model" value={model} required onChange={(e) => setModel(e.target.value)} placeholder="model id" />
          {errorOf('model') && <div className="field-error">{errorOf('model')}</div>}
        </div>
        {current && !current.simulated && (
          <div className="field">
            <label htmlFor="run-baseUrl">Requests go to</label>
            <select id="run-baseUrl" name="baseUrl" defaultValue="" key={provider} data-testid="run-destination">
              <option value="">{current.destination ?? 'not configured'}</option>
              {current.allowedBaseUrls.map((u) => (
                <option key={u} value={u}>
                  {u} (TCLAB_ALLOWED_BASE_URLS)
                </option>
              ))}
            </select>
            <span className="hint">the key goes only to the base URL configured beside it or to an allow-listed one</span>
            {errorOf('baseUrl') && <div className="field-error">{errorOf('baseUrl')}</div>}
          </div>
        )}
        {RUN_FORM_FIELDS.map((f) => (
          <div className="field" key={f.name}>
            <label htmlFor={`run-${f.name}`}>
              {f.label} <span className="hint">{f.hint}</span>
            </label>
            <input id={`run-${f.name}`} name={f.name} type="number" step={f.step} required={!f.nullable} defaultValue={defaults.values[f.name] ?? ''} />
            {errorOf(f.name) && <div className="field-error">{errorOf(f.name)}</div>}
          </div>
        ))}
      </div>
      {alsoTargets.length > 0 && (
        <fieldset className="field" data-testid="also-run-with">
          <legend>
            Also run with <span className="hint">one run each, same experiment version and settings, compared trial by trial</span>
          </legend>
          {alsoTargets.map((t) => (
            <label key={t.value} className="small" style={{ display: 'block' }}>
              <input type="checkbox" name="targets" value={t.value} /> <span className="mono">{t.label}</span>
              {t.hint && <span className="muted"> — {t.hint}</span>}
            </label>
          ))}
          {errorOf('targets') && <div className="field-error">{errorOf('targets')}</div>}
        </fieldset>
      )}
      <fieldset className="field" data-testid="run-budget">
        <legend>
          Budget <span className="hint">optional: the run stops sending once one is reached; what was sent stays recorded</span>
        </legend>
        <div className="form-grid">
          {RUN_BUDGET_FIELDS.map((f) => (
            <div className="field" key={f.name}>
              <label htmlFor={`run-${f.name}`}>
                {f.label} <span className="hint">{f.hint}</span>
              </label>
              <input id={`run-${f.name}`} name={f.name} type="number" min="0" step={f.step} defaultValue="" />
              {errorOf(f.name) && <div className="field-error">{errorOf(f.name)}</div>}
            </div>
          ))}
        </div>
      </fieldset>
      {current?.batch && (
        <div className="field" data-testid="run-batch">
          <label className="small" style={{ display: 'block' }}>
            <input id="run-batch" type="checkbox" name="batch" /> Batch (about half price, answers within 24 h)
          </label>
          <span className="hint">
            the provider&apos;s batch API; single-turn studies only (<DocLink page="batch" />)
          </span>
          {errorOf('batch') && <div className="field-error">{errorOf('batch')}</div>}
        </div>
      )}
      <fieldset className="field" data-testid="run-stop-when-decided">
        <legend>
          Stop when decided{' '}
          <span className="hint">
            pairs go out in a random order fixed now; a study stops once an anytime-valid test has decided it (<DocLink page="statistics" />)
          </span>
        </legend>
        <label className="small" style={{ display: 'block' }}>
          <input id="run-stopWhenDecided" type="checkbox" name="stopWhenDecided" /> Stop each study when decided (e-value ≥ 1/α, Holm; α = 5%)
        </label>
        <div className="field">
          <label htmlFor="run-stopPrecision">
            Or when precise to <span className="hint">percentage points: the anytime-valid interval&apos;s width; empty: the test only</span>
          </label>
          <input id="run-stopPrecision" name="stopPrecision" type="number" min="0" step="any" defaultValue="" />
          {errorOf('stopPrecision') && <div className="field-error">{errorOf('stopPrecision')}</div>}
        </div>
      </fieldset>
      {errorOf('confirmRequests') && (
        <div className="field" data-testid="run-confirm">
          <label htmlFor="run-confirmRequests">Paid requests, typed to confirm</label>
          <div className="field-error" role="alert">
            {errorOf('confirmRequests')}
          </div>
          <input id="run-confirmRequests" name="confirmRequests" type="number" step="1" min="0" defaultValue="" autoComplete="off" />
        </div>
      )}
      {providers.find((p) => p.id === provider && p.simulated) && (
        <p className="small muted">The simulated provider is a transparent heuristic, not a language model: it exists so the pipeline runs offline.</p>
      )}
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Starting…' : 'Run'}
      </button>
      <IssueList message={state.message} issues={state.issues.filter((i) => !FIELD_PATHS.has(i.path))} />
    </form>
  );
}
