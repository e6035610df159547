'use client';

import { kindHasCaseField } from '@/lib/schema/kind-fields';
import { ErrorsAt, SelectField, TextField, useDesigner } from './context';
import { JsonEditor } from './JsonEditor';
import { Section, sectionKey, useSections } from './sections';
import { ArgumentsForm } from './ArgumentsForm';
import { argumentTypesFor, fixedCallTypesFor, type ArgType, type DCase, type DExpected, type DStudy } from './draft-types';

function ExpectedForm({
  path,
  expected,
  tools,
  onChange,
  label,
  argTypes,
}: {
  path: string;
  expected: DExpected;
  tools: string[];
  onChange: (e: DExpected) => void;
  label: string;
  /** The types of the parameters the expected call may pass (from the tools' schemas). */
  argTypes: ReadonlyMap<string, ArgType>;
}) {
  const set = (k: string, v: unknown) => {
    const next = { ...expected } as Record<string, unknown>;
    if (v === undefined || v === '') delete next[k];
    else next[k] = v;
    onChange(next as DExpected);
  };
  const { fields } = useDesigner();
  const value = (name: string): unknown => (expected as Record<string, unknown>)[name];
  // one input per check field the registry gives the designer (lib/scoring/fields), in its order
  return (
    <div className="form-grid" aria-label={label}>
      {fields.map(({ name, designer }) => {
        const fieldLabel = `${label}: ${designer.label}`;
        const fieldPath = `${path}.${name}`;
        switch (designer.input) {
          case 'select':
          case 'tool':
            return (
              <SelectField
                key={name}
                label={fieldLabel}
                path={fieldPath}
                value={String(value(name) ?? '')}
                options={['', ...(designer.input === 'tool' ? tools : (designer.options ?? []))]}
                onChange={(v) => set(name, v)}
              />
            );
          case 'number':
            return (
              <div className="field" key={name}>
                <label htmlFor={`${path}-${name}`}>{fieldLabel}</label>
                <input
                  id={`${path}-${name}`}
                  type="number"
                  min={0}
                  value={typeof value(name) === 'number' ? (value(name) as number) : ''}
                  onChange={(e) => set(name, e.target.value === '' ? undefined : Number(e.target.value))}
                />
                <ErrorsAt path={fieldPath} />
              </div>
            );
          case 'text':
            return <TextField key={name} label={fieldLabel} path={fieldPath} value={String(value(name) ?? '')} onChange={(v) => set(name, v)} />;
          case 'arguments':
            return <ArgumentsForm key={name} label={fieldLabel} path={fieldPath} args={expected.arguments} types={argTypes} onChange={(a) => set(name, a)} />;
        }
      })}
      <ErrorsAt path={path} />
    </div>
  );
}

function CaseCard({ study, si, kase, ki }: { study: DStudy; si: number; kase: DCase; ki: number }) {
  const { draft, update } = useDesigner();
  const p = `studies.${si}.cases.${ki}`;
  const set = (fn: (c: DCase) => void) => update((d) => fn(d.studies[si].cases[ki]));
  const tools = draft.scenarios.find((s) => s.id === kase.scenario)?.tools.map((t) => t.id) ?? [];
  return (
    <Section
      sectionKey={sectionKey.case(si, ki)}
      path={p}
      testId={`case-${kase.id}`}
      summary={
        <>
          <span className="mono">{kase.id}</span>{' '}
          <span className="muted small">
            {kase.scenario}/{kase.locale}
          </span>
        </>
      }
    >
      <div className="form-grid">
        <TextField label="Case id" context={`case ${ki + 1}`} path={`${p}.id`} value={kase.id} onChange={(v) => set((c) => void (c.id = v))} />
        <SelectField
          label="Case scenario"
          context={kase.id}
          path={`${p}.scenario`}
          value={kase.scenario}
          options={['', ...draft.scenarios.map((s) => s.id)]}
          onChange={(v) => set((c) => void (c.scenario = v))}
        />
        <SelectField
          label="Case locale"
          context={kase.id}
          path={`${p}.locale`}
          value={kase.locale}
          options={['', ...draft.locales]}
          onChange={(v) => set((c) => void (c.locale = v))}
        />
      </div>
      <TextField label="Task text" context={kase.id} path={`${p}.task`} value={kase.task} multiline onChange={(v) => set((c) => void (c.task = v))} />
      <h4>Case card</h4>
      <ErrorsAt path={`${p}.checks`} />
      {kase.checks.map((check, ci) => (
        <fieldset key={ci} className="panel" aria-label={`Check ${check.id}`}>
          <div className="form-grid">
            <TextField
              label="Check id"
              context={`${kase.id}, check ${ci + 1}`}
              path={`${p}.checks.${ci}.id`}
              value={check.id}
              onChange={(v) => set((c) => void (c.checks[ci].id = v))}
            />
            <SelectField
              label="Axis"
              context={`${kase.id}/${check.id}`}
              path={`${p}.checks.${ci}.axis`}
              value={check.axis}
              options={['task_fit', 'call_result']}
              onChange={(v) => set((c) => void (c.checks[ci].axis = v))}
            />
            <TextField
              label="What must happen"
              context={`${kase.id}/${check.id}`}
              path={`${p}.checks.${ci}.condition`}
              value={check.condition ?? ''}
              onChange={(v) => set((c) => void (c.checks[ci].condition = v || undefined))}
            />
          </div>
          <ExpectedForm
            label={`Expected (${check.id})`}
            path={`${p}.checks.${ci}.expected`}
            expected={check.expected}
            tools={tools}
            argTypes={argumentTypesFor(draft, study, kase, check.expected)}
            onChange={(e) => set((c) => void (c.checks[ci].expected = e))}
          />
          <button type="button" className="danger" onClick={() => set((c) => void c.checks.splice(ci, 1))}>
            Remove check
          </button>
        </fieldset>
      ))}
      <button
        type="button"
        onClick={() => set((c) => void c.checks.push({ id: c.checks.length === 0 ? 'tool-choice' : `check-${c.checks.length + 1}`, axis: 'task_fit', expected: {} }))}
      >
        Add check
      </button>

      <h4>Evidence gate</h4>
      {(kase.evidenceGate ?? []).map((g, gi) => (
        <div key={gi} className="row">
          <TextField
            label={`Claim ${gi + 1}`}
            path={`${p}.evidenceGate.${gi}.claim`}
            value={g.claim}
            onChange={(v) => set((c) => void (c.evidenceGate![gi].claim = v))}
          />
          <SelectField
            label={`Claim ${gi + 1} status`}
            path={`${p}.evidenceGate.${gi}.status`}
            value={g.status}
            options={['verified', 'unknown', 'contradicted']}
            onChange={(v) => set((c) => void (c.evidenceGate![gi].status = v))}
          />
          <button type="button" className="danger" onClick={() => set((c) => void c.evidenceGate!.splice(gi, 1))}>
            ×
          </button>
        </div>
      ))}
      <button type="button" onClick={() => set((c) => void (c.evidenceGate = [...(c.evidenceGate ?? []), { claim: '', evidence_ref: null, status: 'unknown' }]))}>
        Add claim
      </button>

      <h4>Per-condition expectations</h4>
      <p className="small muted">Where the right answer depends on the definitions sent; replaces the card's expected fields for that condition's trials.</p>
      {Object.entries(kase.expectByCondition ?? {}).flatMap(([cond, byCheck]) =>
        Object.entries(byCheck).map(([checkId, exp]) => (
          <fieldset key={`${cond}/${checkId}`} className="panel" aria-label={`Expectation for ${cond} / ${checkId}`}>
            <p className="small">
              condition <span className="mono">{cond}</span>, check <span className="mono">{checkId}</span>
            </p>
            <ExpectedForm
              label={`For ${cond} (${checkId})`}
              path={`${p}.expectByCondition.${cond}.${checkId}`}
              expected={exp}
              tools={tools}
              argTypes={argumentTypesFor(draft, study, kase, { ...kase.checks.find((k) => k.id === checkId)?.expected, ...exp }, cond)}
              onChange={(e) => set((c) => void (c.expectByCondition![cond][checkId] = e))}
            />
            <button
              type="button"
              className="danger"
              onClick={() =>
                set((c) => {
                  delete c.expectByCondition![cond][checkId];
                  if (Object.keys(c.expectByCondition![cond]).length === 0) delete c.expectByCondition![cond];
                })
              }
            >
              Remove expectation
            </button>
          </fieldset>
        )),
      )}
      <ErrorsAt path={`${p}.expectByCondition`} />
      <div className="row">
        {study.conditions
          .filter((k) => !kase.expectByCondition?.[k.id]?.[kase.checks[0]?.id ?? ''])
          .map((k) =>
            kase.checks[0] ? (
              <button
                key={k.id}
                type="button"
                onClick={() =>
                  set((c) => void (c.expectByCondition = { ...(c.expectByCondition ?? {}), [k.id]: { ...(c.expectByCondition?.[k.id] ?? {}), [c.checks[0].id]: {} } }))
                }
              >
                Expectation for {k.id}
              </button>
            ) : null,
          )}
      </div>

      {kindHasCaseField(study.kind, 'fixedCall') && (
        <>
          <h4>Fixed call and injected result</h4>
          <SelectField
            label="Fixed call: tool"
            path={`${p}.fixedCall.tool`}
            value={kase.fixedCall?.tool ?? ''}
            options={['', ...tools]}
            onChange={(v) => set((c) => void (c.fixedCall = v ? { tool: v, arguments: c.fixedCall?.arguments ?? {} } : undefined))}
          />
          <ArgumentsForm
            label="Fixed call: arguments"
            path={`${p}.fixedCall.arguments`}
            args={kase.fixedCall?.arguments}
            types={fixedCallTypesFor(draft, study, kase)}
            onChange={(a) => set((c) => void (c.fixedCall = { tool: c.fixedCall?.tool ?? '', arguments: a ?? {} }))}
          />
          <ErrorsAt path={`${p}.fixedCall`} />
          <JsonEditor
            label="Injected tool result"
            expect="any"
            value={kase.toolResult ?? null}
            onValid={(v) => set((c) => void (c.toolResult = v === null ? undefined : v))}
            height="100px"
          />
          <ErrorsAt path={`${p}.toolResult`} />
        </>
      )}
      <button type="button" className="danger" onClick={() => update((d) => void d.studies[si].cases.splice(ki, 1))}>
        Remove case
      </button>
    </Section>
  );
}

export function CasesSection({ study, si }: { study: DStudy; si: number }) {
  const { draft, update } = useDesigner();
  const { setOpen } = useSections();
  return (
    <div aria-label={`Cases of ${study.id}`} id={`designer-cases-${si}`} tabIndex={-1}>
      <h3>Cases</h3>
      <ErrorsAt path={`studies.${si}.cases`} />
      {study.cases.map((k, ki) => (
        <CaseCard key={ki} study={study} si={si} kase={k} ki={ki} />
      ))}
      <button
        type="button"
        onClick={() => {
          update((d) => {
            const cs = d.studies[si].cases;
            cs.push({
              id: `case-${cs.length + 1}`,
              scenario: draft.scenarios[0]?.id ?? '',
              locale: draft.locales[0] ?? '',
              task: '',
              checks: [{ id: 'tool-choice', axis: 'task_fit', expected: {} }],
            });
          });
          setOpen(sectionKey.case(si, study.cases.length), true);
        }}
      >
        Add case
      </button>
    </div>
  );
}
