'use client';

import { STUDY_KINDS } from '@/lib/schema/study-kind';
import { TOOL_FACTS } from '@/lib/schema/experiment';
import { FACT_TEXT } from '@/lib/design/tool-facts';
import { ErrorsAt, SelectField, TextField, useDesigner } from './context';
import { ORDER_POLICIES, type DStudy } from './draft-types';

export function OverviewSection() {
  const { draft, update } = useDesigner();
  return (
    <section className="panel" aria-label="Overview" id="designer-overview" tabIndex={-1}>
      <h2 style={{ marginTop: 0 }}>Overview</h2>
      <p className="small muted mono">id: {draft.id}</p>
      <TextField label="Name" path="name" value={draft.name} onChange={(v) => update((d) => void (d.name = v))} />
      <TextField label="Description" path="description" value={draft.description ?? ''} multiline onChange={(v) => update((d) => void (d.description = v))} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor="f-locales">
            Locales <span className="hint">(comma-separated, e.g. en, zh-TW)</span>
          </label>
          <input
            id="f-locales"
            defaultValue={draft.locales.join(', ')}
            onBlur={(e) =>
              update(
                (d) =>
                  void (d.locales = e.target.value
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean)),
              )
            }
          />
          <ErrorsAt path="locales" />
          {draft.locales.map((_, i) => (
            <ErrorsAt key={i} path={`locales.${i}`} />
          ))}
        </div>
        <div className="field">
          <label htmlFor="f-replicates">Replicates</label>
          <input
            id="f-replicates"
            type="number"
            min={1}
            value={String(draft.replicates ?? 1)}
            onChange={(e) => update((d) => void (d.replicates = e.target.value === '' ? 1 : Number(e.target.value)))}
          />
          <ErrorsAt path="replicates" />
        </div>
      </div>
    </section>
  );
}

export function ScenariosSection() {
  const { draft, update } = useDesigner();
  return (
    <section className="panel" aria-label="Scenarios" id="designer-scenarios" tabIndex={-1}>
      <h2 style={{ marginTop: 0 }}>Scenarios and their tools</h2>
      <p className="small muted">A tool's effect is hidden metadata: never sent to the model, used to score unwanted and missed writes.</p>
      <ErrorsAt path="scenarios" />
      {draft.scenarios.map((s, si) => (
        <fieldset key={si} className="panel" aria-label={`Scenario ${si + 1}`}>
          <div className="form-grid">
            <TextField label="Scenario id" path={`scenarios.${si}.id`} value={s.id} onChange={(v) => update((d) => void (d.scenarios[si].id = v))} />
            <TextField label="Scenario title" path={`scenarios.${si}.title`} value={s.title} onChange={(v) => update((d) => void (d.scenarios[si].title = v))} />
          </div>
          {s.source ? <p className="small muted">tools from snapshot {String((s.source as { snapshot?: string }).snapshot)}</p> : null}
          <ErrorsAt path={`scenarios.${si}.tools`} />
          {s.tools.map((t, ti) => (
            <div key={ti} className="row">
              <TextField
                label={`Tool ${ti + 1} id`}
                path={`scenarios.${si}.tools.${ti}.id`}
                value={t.id}
                onChange={(v) => update((d) => void (d.scenarios[si].tools[ti].id = v))}
              />
              <SelectField
                label={`Tool ${ti + 1} effect`}
                path={`scenarios.${si}.tools.${ti}.effect`}
                value={t.effect}
                options={['read', 'write']}
                onChange={(v) => update((d) => void (d.scenarios[si].tools[ti].effect = v as 'read' | 'write'))}
              />
              <fieldset className="facts" aria-label={`Tool ${ti + 1} facts`} data-testid={`tool-facts-${si}-${ti}`}>
                <legend className="small">
                  Tool {ti + 1} facts{' '}
                  <span className="hint">(what the server enforces that no protocol field carries; the linter asks its descriptions to say them)</span>
                </legend>
                {TOOL_FACTS.map((fact) => (
                  <label key={fact} className="small" title={FACT_TEXT[fact].what}>
                    <input
                      type="checkbox"
                      checked={t.facts?.includes(fact) ?? false}
                      onChange={(e) =>
                        update((d) => {
                          const tool = d.scenarios[si].tools[ti];
                          const next = TOOL_FACTS.filter((f) => (f === fact ? e.target.checked : (tool.facts ?? []).includes(f)));
                          if (next.length > 0) tool.facts = next;
                          else delete tool.facts;
                        })
                      }
                    />{' '}
                    {fact}
                  </label>
                ))}
                <ErrorsAt path={`scenarios.${si}.tools.${ti}.facts`} />
              </fieldset>
              <button type="button" className="danger" onClick={() => update((d) => void d.scenarios[si].tools.splice(ti, 1))}>
                Remove tool
              </button>
            </div>
          ))}
          <div className="row">
            <button type="button" onClick={() => update((d) => void d.scenarios[si].tools.push({ id: `tool-${s.tools.length + 1}`, effect: 'read' }))}>
              Add tool
            </button>
            <button type="button" className="danger" onClick={() => update((d) => void d.scenarios.splice(si, 1))}>
              Remove scenario
            </button>
          </div>
        </fieldset>
      ))}
      <button type="button" onClick={() => update((d) => void d.scenarios.push({ id: `scenario-${d.scenarios.length + 1}`, title: 'New scenario', tools: [] }))}>
        Add scenario
      </button>
    </section>
  );
}

const MARKER_KEYS = ['clarify', 'stop', 'status'] as const;

export function StudyFields({ study, si }: { study: DStudy; si: number }) {
  const { draft, update } = useDesigner();
  const p = `studies.${si}`;
  const markers = study.protocol.markers ?? { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' };
  // kinds come from the registry of study kinds; a kind this build does not know is shown as it is
  const kinds = STUDY_KINDS.includes(study.kind as (typeof STUDY_KINDS)[number]) ? [...STUDY_KINDS] : [...STUDY_KINDS, study.kind];
  return (
    <>
      <div className="form-grid">
        <TextField label="Study id" path={`${p}.id`} value={study.id} onChange={(v) => update((d) => void (d.studies[si].id = v))} />
        <SelectField label="Kind" path={`${p}.kind`} value={study.kind} options={kinds} onChange={(v) => update((d) => void (d.studies[si].kind = v))} />
        <SelectField
          label="Candidate order policy"
          path={`${p}.orderPolicy`}
          value={study.orderPolicy ?? 'fixed'}
          options={ORDER_POLICIES}
          onChange={(v) => update((d) => void (d.studies[si].orderPolicy = v))}
        />
      </div>
      <TextField label="Study title" path={`${p}.title`} value={study.title} onChange={(v) => update((d) => void (d.studies[si].title = v))} />
      <h4>Response protocol</h4>
      {draft.locales.map((l) => (
        <TextField
          key={l}
          label={`System text (${l})`}
          path={`${p}.protocol.system.${l}`}
          value={study.protocol.system[l] ?? ''}
          multiline
          onChange={(v) =>
            update((d) => {
              const sys = d.studies[si].protocol.system;
              if (v === '') delete sys[l];
              else sys[l] = v;
            })
          }
        />
      ))}
      <div className="form-grid">
        {MARKER_KEYS.map((k) => (
          <TextField
            key={k}
            label={`Marker: ${k}`}
            path={`${p}.protocol.markers.${k}`}
            value={markers[k]}
            onChange={(v) => update((d) => void (d.studies[si].protocol.markers = { ...markers, [k]: v }))}
          />
        ))}
        <div className="field">
          <label htmlFor={`f-${si}-labels`}>
            Labels <span className="hint">(comma-separated; interpretation answers)</span>
          </label>
          <input
            id={`f-${si}-labels`}
            defaultValue={(study.protocol.labels ?? []).join(', ')}
            onBlur={(e) =>
              update(
                (d) =>
                  void (d.studies[si].protocol.labels = e.target.value
                    .split(',')
                    .map((s) => s.trim())
                    .filter(Boolean)),
              )
            }
          />
          <ErrorsAt path={`${p}.protocol.labels`} />
        </div>
      </div>
    </>
  );
}

export function PrechecksSection() {
  const { draft, update } = useDesigner();
  return (
    <section className="panel" aria-label="Pre-checks" id="designer-prechecks" tabIndex={-1}>
      <h2 style={{ marginTop: 0 }}>Pre-checks</h2>
      <p className="small muted">Requests sent before the run to test credentials and wiring; stored apart, never in any denominator.</p>
      <ErrorsAt path="prechecks" />
      {draft.prechecks.map((pc, i) => {
        const study = draft.studies.find((s) => s.id === pc.study);
        return (
          <div key={i} className="row">
            <SelectField
              label={`Pre-check ${i + 1} study`}
              path={`prechecks.${i}.study`}
              value={pc.study}
              options={['', ...draft.studies.map((s) => s.id)]}
              onChange={(v) => update((d) => void (d.prechecks[i].study = v))}
            />
            <SelectField
              label={`Pre-check ${i + 1} condition`}
              path={`prechecks.${i}.condition`}
              value={pc.condition}
              options={['', ...(study?.conditions.map((c) => c.id) ?? [])]}
              onChange={(v) => update((d) => void (d.prechecks[i].condition = v))}
            />
            <SelectField
              label={`Pre-check ${i + 1} case`}
              path={`prechecks.${i}.caseId`}
              value={pc.caseId}
              options={['', ...(study?.cases.map((c) => c.id) ?? [])]}
              onChange={(v) => update((d) => void (d.prechecks[i].caseId = v))}
            />
            <button type="button" className="danger" onClick={() => update((d) => void d.prechecks.splice(i, 1))}>
              Remove pre-check
            </button>
          </div>
        );
      })}
      <button
        type="button"
        onClick={() =>
          update((d) => {
            const s = d.studies[0];
            d.prechecks.push({ study: s?.id ?? '', condition: s?.conditions.find((c) => !c.baseline)?.id ?? s?.conditions[0]?.id ?? '', caseId: s?.cases[0]?.id ?? '' });
          })
        }
      >
        Add pre-check
      </button>
    </section>
  );
}
