'use client';

import { useActionState, useState, type FormEvent } from 'react';
import Link from 'next/link';
import { joinCasesAction, reviewCandidateAction, saveCasesAction, type JoinCasesState } from './actions';
import { TRACE_UPLOAD_LIMIT, traceImportQuery } from './case-forms';
import { urls } from '@/lib/urls';
import { IssueList } from '../IssueList';
import { keepValues } from '../keep-values';
import type { ActionState } from '@/lib/experiments/import';
import { TRACE_FORMATS } from '@/lib/schema/trace-candidate';

const initial: ActionState = { issues: [], message: null };

/** A form's experiment field (`experimentId`): the experiments by label, with an empty choice first. */
function ExperimentSelect({ id, experiments, defaultValue, none }: { id: string; experiments: { id: string; label: string }[]; defaultValue: string; none: string }) {
  return (
    <select id={id} name="experimentId" defaultValue={defaultValue}>
      <option value="">{none}</option>
      {experiments.map((e) => (
        <option key={e.id} value={e.id}>
          {e.label}
        </option>
      ))}
    </select>
  );
}

/**
 * Upload a trace or log file: its candidates wait for review; the report says what was kept, dropped and why. The
 * file goes as the body of one request to the import route (app/api/trace-imports), which spools it to disk and
 * reads it line by line.
 */
export function ImportTracesForm({ experiments }: { experiments: { id: string; label: string }[] }) {
  const [state, setState] = useState<ActionState>(initial);
  const [pending, setPending] = useState(false);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const file = form.get('file');
    if (!(file instanceof File) || file.size === 0)
      return setState({ issues: [{ path: 'file', message: 'choose a trace or log file (it is empty or missing)' }], message: 'Nothing was stored.' });
    if (file.size > TRACE_UPLOAD_LIMIT)
      return setState({
        issues: [{ path: 'file', message: `${file.size.toLocaleString('en-US')} bytes: files over 1 GiB are imported with tclab cases import` }],
        message: 'Nothing was stored.',
      });
    setPending(true);
    try {
      const res = await fetch(`/api/trace-imports?${traceImportQuery(form, file.name).toString()}`, {
        method: 'POST',
        body: file,
        headers: { 'content-type': 'application/octet-stream' },
      });
      const body = (await res.json().catch(() => null)) as { url?: string; issues?: ActionState['issues']; message?: string; error?: string } | null;
      if (res.ok && body?.url) return window.location.assign(body.url);
      setState({ issues: body?.issues ?? [], message: body?.message ?? body?.error ?? `The import failed (HTTP ${res.status}); nothing was stored.` });
    } catch {
      setState({ issues: [], message: 'The upload was interrupted; nothing was stored.' });
    } finally {
      setPending(false);
    }
  }
  return (
    <form onSubmit={submit} className="panel" aria-label="Import traces">
      <h2 style={{ marginTop: 0 }}>Import traces</h2>
      <p className="muted small">
        A trace (OTLP JSON) or a request/response log (JSONL), up to 1 GiB here; larger files with <code>tclab cases import</code>. Personal data is redacted before
        anything is stored; nothing is stored when the file cannot be read.
      </p>
      <div className="field">
        <label htmlFor="trace-format">Format</label>
        <select id="trace-format" name="format" defaultValue="openai-log">
          {TRACE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="trace-file">File</label>
        <input id="trace-file" name="file" type="file" accept=".json,.jsonl,application/json" required />
      </div>
      <div className="field">
        <label htmlFor="trace-experiment">
          Experiment <span className="hint">(optional: traces without tool definitions are mapped onto its tools by name)</span>
        </label>
        <ExperimentSelect id="trace-experiment" experiments={experiments} defaultValue="" none="none" />
      </div>
      <div className="field">
        <label htmlFor="trace-sample">
          Sample <span className="hint">(optional: keep this many candidates, stratified by the tool observed)</span>
        </label>
        <input id="trace-sample" name="sample" inputMode="numeric" />
      </div>
      <div className="field">
        <label htmlFor="trace-redact">
          Also redact <span className="hint">(optional: one regular expression a line)</span>
        </label>
        <textarea id="trace-redact" name="redact" rows={2} spellCheck={false} />
      </div>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Uploading and importing…' : 'Import'}
      </button>
      <IssueList message={state.message} issues={state.issues} testId="trace-import-errors" />
    </form>
  );
}

export interface ReviewFormTool {
  name: string;
  parameters: unknown;
}

/**
 * The reviewer's case card for one candidate: the call that should happen, CLARIFY, STOP, or a rejection.
 * Nothing is filled in from what the model did (docs/traces.md): the card is the reviewer's own reading.
 */
export function ReviewCandidateForm({ importId, seq, tools }: { importId: string; seq: number; tools: ReviewFormTool[] }) {
  const [state, action, pending] = useActionState(reviewCandidateAction.bind(null, importId, seq), initial);
  const [decision, setDecision] = useState(tools.length > 0 ? 'call' : 'clarify');
  const choices: [string, string][] = [
    ['call', 'A tool call'],
    ['clarify', 'CLARIFY (ask the user)'],
    ['stop', 'STOP (no tool can do it)'],
    ['reject', 'Reject the candidate'],
  ];
  return (
    <form action={action} onSubmit={keepValues(action)} className="panel" aria-label="Case card" data-testid="candidate-review-form">
      <h2 style={{ marginTop: 0 }}>Case card</h2>
      <fieldset className="field">
        <legend>What should happen</legend>
        {choices.map(([value, label]) => (
          <label key={value} className="row" style={{ gap: 6 }}>
            <input
              type="radio"
              name="decision"
              value={value}
              checked={decision === value}
              onChange={() => setDecision(value)}
              disabled={value === 'call' && tools.length === 0}
            />
            {label}
          </label>
        ))}
      </fieldset>
      {decision === 'call' && (
        <>
          <div className="field">
            <label htmlFor="card-tool">Tool</label>
            <select id="card-tool" name="tool" defaultValue="">
              <option value="">choose the tool that should be called</option>
              {tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="card-effect">Its effect</label>
            <select id="card-effect" name="effect" defaultValue="read">
              <option value="read">read</option>
              <option value="write">write</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="card-arguments">
              Arguments <span className="hint">(JSON; checked against the tool&apos;s parameters)</span>
            </label>
            <textarea id="card-arguments" name="arguments" rows={4} spellCheck={false} defaultValue="{}" />
          </div>
        </>
      )}
      {decision === 'reject' && (
        <div className="field">
          <label htmlFor="card-reason">Reason</label>
          <input id="card-reason" name="reason" />
        </div>
      )}
      <button type="submit" className="primary" disabled={pending} data-testid="save-card">
        {pending ? 'Saving…' : 'Save and next'}
      </button>
      <IssueList message={state.message} issues={state.issues} testId="card-errors" />
    </form>
  );
}

/** The accepted cases as a new experiment. */
export function SaveCasesForm({ importId, defaultId }: { importId: string; defaultId: string }) {
  const [state, action, pending] = useActionState(saveCasesAction.bind(null, importId), initial);
  return (
    <form action={action} onSubmit={keepValues(action)} className="panel" aria-label="Save the accepted cases as an experiment">
      <h2 style={{ marginTop: 0 }}>Save the accepted cases as an experiment</h2>
      <p className="muted small">One selection study: the tools as the trace offered them against the same tools without descriptions, one case per accepted card.</p>
      <div className="field">
        <label htmlFor="cases-id">Experiment id</label>
        <input id="cases-id" name="id" defaultValue={defaultId} />
      </div>
      <div className="field">
        <label htmlFor="cases-name">Name</label>
        <input id="cases-name" name="name" defaultValue="Cases from traffic" />
      </div>
      <button type="submit" disabled={pending} data-testid="save-cases">
        {pending ? 'Saving…' : 'Save as experiment'}
      </button>
      <IssueList message={state.message} issues={state.issues} testId="save-cases-errors" />
    </form>
  );
}

/** The accepted cases join a study of an existing experiment as its next version, the trace's tools mapped by name. */
export function JoinCasesForm({
  importId,
  experiments,
  defaultExperiment,
}: {
  importId: string;
  experiments: { id: string; label: string }[];
  defaultExperiment: string | null;
}) {
  const [state, action, pending] = useActionState<JoinCasesState, FormData>(joinCasesAction.bind(null, importId), initial);
  return (
    <form action={action} onSubmit={keepValues(action)} className="panel" aria-label="Join the accepted cases to an existing experiment">
      <h2 style={{ marginTop: 0 }}>Or join an existing experiment</h2>
      <p className="muted small">
        The accepted cases become cases of one of its studies in its next version. The trace&apos;s tools are mapped onto a scenario&apos;s tools by name; a card whose
        tool the scenario does not have is listed, not added.
      </p>
      <div className="field">
        <label htmlFor="join-experiment">Experiment</label>
        <ExperimentSelect id="join-experiment" experiments={experiments} defaultValue={defaultExperiment ?? ''} none="pick one" />
      </div>
      <div className="field">
        <label htmlFor="join-study">Study</label>
        <input id="join-study" name="study" defaultValue="selection" />
      </div>
      <div className="field">
        <label htmlFor="join-scenario">
          Scenario <span className="hint">(optional: by default the one whose tools the trace&apos;s names match most)</span>
        </label>
        <input id="join-scenario" name="scenario" defaultValue="" />
      </div>
      <button type="submit" disabled={pending} data-testid="join-cases">
        {pending ? 'Saving…' : 'Join as the next version'}
      </button>
      <IssueList message={state.message} issues={state.issues} testId="join-cases-errors" />
      {state.joined && (
        <div role="status" data-testid="join-cases-result" className="small">
          <p>
            Saved as <Link href={urls.experiment(state.joined.experimentId)}>{state.joined.experimentId}</Link>: {state.joined.added} case
            {state.joined.added === 1 ? '' : 's'} added.
          </p>
          {state.joined.notJoined.length > 0 && (
            <ul data-testid="join-not-added">
              {state.joined.notJoined.map((n) => (
                <li key={n}>Not added: {n}</li>
              ))}
            </ul>
          )}
          {state.joined.unmapped.length > 0 && <p data-testid="join-unmapped">Tool names the scenario does not have: {state.joined.unmapped.join(', ')}</p>}
        </div>
      )}
    </form>
  );
}
