'use client';

import { useState } from 'react';
import type { AblationProposal } from '@/lib/design/ablations';
import { ErrorsAt, TextField, useDesigner } from './context';
import { JsonEditor } from './JsonEditor';
import type { DCondition, DStudy, DTool } from './draft-types';
import { proposeAblationsAction } from './actions';
import { WordDiff } from '../WordDiff';
import { Variants } from './Variants';
import { Section, sectionKey, useSections } from './sections';

const blankTool = (tool: string): DTool => ({ tool, name: tool.replace(/[^A-Za-z0-9_.-]/g, '_'), description: '', parameters: { type: 'object', properties: {} } });

function ToolDefinitions({ study, si, ci, condition }: { study: DStudy; si: number; ci: number; condition: DCondition }) {
  const { draft, update, findings } = useDesigner();
  const baseline = study.conditions.find((c) => c.baseline);
  return (
    <>
      {draft.scenarios.map((scenario) =>
        draft.locales.map((locale) => {
          const defs = condition.tools[scenario.id]?.[locale] ?? [];
          const base = baseline && baseline !== condition ? (baseline.tools[scenario.id]?.[locale] ?? []) : null;
          const p = `studies.${si}.conditions.${ci}.tools.${scenario.id}.${locale}`;
          const setDefs = (fn: (xs: DTool[]) => void) =>
            update((d) => {
              const tools = d.studies[si].conditions[ci].tools;
              tools[scenario.id] ??= {};
              tools[scenario.id][locale] ??= [];
              fn(tools[scenario.id][locale]);
              if (tools[scenario.id][locale].length === 0) delete tools[scenario.id][locale];
              if (Object.keys(tools[scenario.id]).length === 0) delete tools[scenario.id];
            });
          return (
            <Section
              key={`${scenario.id}/${locale}`}
              sectionKey={sectionKey.catalog(si, ci, scenario.id, locale)}
              path={p}
              label={`Tools of ${condition.id} for ${scenario.id}/${locale}`}
              testId={`catalog-${condition.id}-${scenario.id}-${locale}`}
              summary={
                <strong>
                  {scenario.id} / {locale}{' '}
                  <span className="muted small">
                    ({defs.length} definition{defs.length === 1 ? '' : 's'})
                  </span>
                </strong>
              }
            >
              <ErrorsAt path={p} />
              {defs.map((def, di) => {
                const mine = findings.filter(
                  (f) => f.study === study.id && f.condition === condition.id && f.scenario === scenario.id && f.locale === locale && f.tool === def.name,
                );
                const baseDef = base?.find((b) => b.tool === def.tool);
                const dp = `${p}.${di}`;
                const where = `${condition.id}, ${scenario.id}/${locale}`;
                return (
                  <fieldset key={di} className="panel" aria-label={`Definition ${def.tool} (${where})`}>
                    <div className="form-grid">
                      <div className="field">
                        <label>Scenario tool</label>
                        <span className="mono">{def.tool}</span>
                        <ErrorsAt path={`${dp}.tool`} />
                      </div>
                      <TextField
                        label={`Name of ${def.tool}`}
                        context={where}
                        path={`${dp}.name`}
                        value={def.name}
                        onChange={(v) => setDefs((xs) => void (xs[di].name = v))}
                      />
                    </div>
                    <TextField
                      label={`Description of ${def.tool}`}
                      context={where}
                      path={`${dp}.description`}
                      value={def.description}
                      multiline
                      onChange={(v) => setDefs((xs) => void (xs[di].description = v))}
                    />
                    {mine.length > 0 && (
                      <ul className="small" data-testid="lint-findings">
                        {mine.map((f, k) => (
                          <li key={k} className={f.level === 'error' ? 'field-error' : 'muted'}>
                            {f.level} <code>{f.rule}</code>: {f.message}
                          </li>
                        ))}
                      </ul>
                    )}
                    {baseDef && <WordDiff before={baseDef.description} after={def.description} />}
                    <JsonEditor
                      label={`Parameters of ${def.tool}`}
                      context={where}
                      value={def.parameters}
                      testId={`params-${condition.id}-${scenario.id}-${locale}-${def.tool}`}
                      onValid={(v) => setDefs((xs) => void (xs[di].parameters = v as Record<string, unknown>))}
                    />
                    <ErrorsAt path={`${dp}.parameters`} />
                    <button type="button" className="danger" onClick={() => setDefs((xs) => void xs.splice(di, 1))}>
                      Remove definition
                    </button>
                  </fieldset>
                );
              })}
              <div className="row">
                {scenario.tools
                  .filter((t) => !defs.some((d) => d.tool === t.id))
                  .map((t) => (
                    <button key={t.id} type="button" onClick={() => setDefs((xs) => void xs.push(blankTool(t.id)))}>
                      Define {t.id}
                    </button>
                  ))}
                {base && base.length > 0 && (
                  <button type="button" onClick={() => setDefs((xs) => void xs.splice(0, xs.length, ...structuredClone(base)))}>
                    Copy from baseline ({scenario.id}/{locale})
                  </button>
                )}
              </div>
            </Section>
          );
        }),
      )}
    </>
  );
}

function Ablations({ study, si }: { study: DStudy; si: number }) {
  const { update } = useDesigner();
  const { draft } = useDesigner();
  const treatments = study.conditions.filter((c) => !c.baseline);
  const [treatment, setTreatment] = useState(treatments[0]?.id ?? '');
  const [result, setResult] = useState<{ message: string | null; proposals: AblationProposal[] } | null>(null);
  if (!study.conditions.some((c) => c.baseline) || treatments.length === 0) return null;
  return (
    <div className="panel" aria-label={`Ablations of ${study.id}`}>
      <h4 style={{ marginTop: 0 }}>Single-field ablations</h4>
      <p className="small muted">Conditions that each take exactly one field group from a treatment and everything else from the baseline — only groups that differ.</p>
      <div className="row">
        <select aria-label="Treatment to ablate" value={treatment} onChange={(e) => setTreatment(e.target.value)}>
          {treatments.map((c) => (
            <option key={c.id} value={c.id}>
              {c.id}
            </option>
          ))}
        </select>
        <button type="button" onClick={async () => setResult(await proposeAblationsAction(draft.id, study.id, treatment))}>
          Generate ablations
        </button>
      </div>
      {result?.message && <p className="field-error">{result.message}</p>}
      {result && result.proposals.length > 0 && (
        <div data-testid="ablation-proposals">
          {result.proposals.map((p) => (
            <details key={p.group} open>
              <summary>
                <span className="mono">{p.condition.id}</span>: {p.condition.label} ({p.changes.length} field{p.changes.length === 1 ? '' : 's'} from {treatment})
              </summary>
              <ul className="small">
                {p.changes.map((c, k) => (
                  <li key={k}>
                    {c.scenario}/{c.locale} <span className="mono">{c.tool}</span>.{c.field}: <del>{JSON.stringify(c.before).slice(0, 160)}</del> →{' '}
                    <ins>{JSON.stringify(c.after).slice(0, 160)}</ins>
                  </li>
                ))}
              </ul>
            </details>
          ))}
          <button
            type="button"
            className="primary"
            onClick={() => {
              update((d) => void d.studies[si].conditions.push(...(structuredClone(result.proposals.map((p) => p.condition)) as DCondition[])));
              setResult(null);
            }}
          >
            Add these {result.proposals.length} conditions
          </button>
        </div>
      )}
    </div>
  );
}

export function ConditionsSection({ study, si }: { study: DStudy; si: number }) {
  const { update } = useDesigner();
  const { setOpen } = useSections();
  return (
    <div aria-label={`Conditions of ${study.id}`}>
      <h3>Conditions</h3>
      <ErrorsAt path={`studies.${si}.conditions`} />
      {study.conditions.map((c, ci) => (
        <Section
          key={ci}
          sectionKey={sectionKey.condition(si, ci)}
          id={`designer-condition-${si}-${ci}`}
          path={`studies.${si}.conditions.${ci}`}
          testId={`condition-${c.id}`}
          summary={
            <>
              <span className="mono">{c.id}</span> {c.baseline && <span className="badge">baseline</span>}
              {c.variant && (
                <span className="badge" data-testid={`variant-kind-${c.id}`}>
                  {c.variant.kind} of {c.variant.of}
                </span>
              )}
            </>
          }
        >
          <div className="form-grid">
            <TextField
              label="Condition id"
              path={`studies.${si}.conditions.${ci}.id`}
              value={c.id}
              onChange={(v) => update((d) => void (d.studies[si].conditions[ci].id = v))}
            />
            <TextField
              label="Condition label"
              path={`studies.${si}.conditions.${ci}.label`}
              value={c.label}
              onChange={(v) => update((d) => void (d.studies[si].conditions[ci].label = v))}
            />
            <div className="field">
              <label>
                <input
                  type="radio"
                  name={`baseline-${si}`}
                  checked={Boolean(c.baseline)}
                  onChange={() => update((d) => d.studies[si].conditions.forEach((k, i) => (k.baseline = i === ci)))}
                />{' '}
                Baseline
              </label>
            </div>
          </div>
          <ToolDefinitions study={study} si={si} ci={ci} condition={c} />
          <button type="button" className="danger" onClick={() => update((d) => void d.studies[si].conditions.splice(ci, 1))}>
            Remove condition
          </button>
        </Section>
      ))}
      <button
        type="button"
        onClick={() => {
          update((d) => {
            const cs = d.studies[si].conditions;
            cs.push({ id: `condition-${cs.length + 1}`, label: `Condition ${cs.length + 1}`, baseline: cs.length === 0, tools: {} });
          });
          setOpen(sectionKey.condition(si, study.conditions.length), true);
        }}
      >
        Add condition
      </button>
      <Ablations study={study} si={si} />
      <Variants study={study} si={si} />
    </div>
  );
}
