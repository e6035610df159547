'use client';

import { useId, useState } from 'react';
import { ErrorsAt } from './context';
import { defaultValue, pickedTypeOf, textOfValue, valueFromText, type ArgType, type PickedType } from './draft-types';

// Expected (or fixed-call) arguments as name / value rows. A value takes its type from the tool's parameter
// schema (lib/design/argument-types.ts): a string stays the text typed (`0593135202`, `true`), an integer or
// number parses, an enum is a choice, a boolean a checkbox; where the schema is silent the user picks the
// type. A value may be a list of acceptable values, each item typed by the same rule.

const ANY: ArgType = { kind: 'silent', types: null };
const PICKS: { value: PickedType; label: string }[] = [
  { value: 'text', label: 'text' },
  { value: 'number', label: 'number' },
  { value: 'boolean', label: 'boolean' },
  { value: 'null', label: 'null' },
  { value: 'json', label: 'JSON' },
];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** Whether a list is the value itself (the parameter takes lists) rather than a list of acceptable values. */
const takesLists = (t: ArgType) => t.kind === 'array' || (t.kind === 'silent' && (t.types === null || t.types.includes('array')));
const describe = (t: ArgType) => (t.kind === 'enum' ? 'one of the schema' : t.kind === 'silent' ? 'schema silent: pick the type' : t.kind);

/** One value of a parameter of type `t`; `optional`: an empty value is allowed (`""`, "may be omitted", in a list). */
function ValueInput({ label, t, value, optional, onChange }: { label: string; t: ArgType; value: unknown; optional: boolean; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(() => textOfValue(value));
  const [picked, setPicked] = useState<PickedType>(() => pickedTypeOf(value));
  const [seen, setSeen] = useState<unknown>(value);
  const id = useId();
  if (!same(seen, value)) {
    // changed from elsewhere (the JSON view, another row): show it
    setSeen(value);
    setText(textOfValue(value));
    setPicked(pickedTypeOf(value));
  }
  const read = (s: string, p: PickedType) => (optional && s === '' && p !== 'null' ? { value: '', error: null } : valueFromText(s, t, p));
  const emit = (s: string, p: PickedType) => {
    const r = read(s, p);
    setText(s);
    setPicked(p);
    setSeen(r.value);
    onChange(r.value);
  };
  const error = t.kind === 'enum' || t.kind === 'boolean' ? null : read(text, picked).error;
  const kind = t.kind === 'silent' ? picked : t.kind;

  let input;
  if (t.kind === 'enum') {
    const at = t.values.findIndex((v) => same(v, value));
    input = (
      <select id={id} aria-label={label} value={at >= 0 ? String(at) : ''} onChange={(e) => onChange(e.target.value === '' ? '' : t.values[Number(e.target.value)])}>
        <option value="">{optional ? '(may be omitted)' : '— choose —'}</option>
        {t.values.map((v, i) => (
          <option key={i} value={String(i)}>
            {textOfValue(v)}
          </option>
        ))}
      </select>
    );
  } else if (kind === 'boolean') {
    input = (
      <label className="small">
        <input type="checkbox" aria-label={label} checked={value === true} onChange={(e) => emit(String(e.target.checked), picked)} /> true
      </label>
    );
  } else if (kind === 'null') {
    input = <span className="mono small">null</span>;
  } else {
    input = (
      <input
        id={id}
        aria-label={label}
        value={text}
        inputMode={kind === 'integer' || kind === 'number' ? 'decimal' : undefined}
        placeholder={optional ? '(empty: may be omitted)' : undefined}
        aria-invalid={error ? true : undefined}
        onChange={(e) => emit(e.target.value, picked)}
        style={{ minWidth: 0, flex: '1 1 8em' }}
      />
    );
  }
  return (
    <span className="row" style={{ gap: 6, flex: '1 1 12em', minWidth: 0 }}>
      {t.kind === 'silent' && (
        <select aria-label={`${label}: type`} value={picked} onChange={(e) => emit(text, e.target.value as PickedType)}>
          {PICKS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      )}
      {input}
      {error && (
        <span className="field-error" role="alert" data-testid="value-error">
          {label}: {error}
        </span>
      )}
    </span>
  );
}

export function ArgumentsForm({
  label,
  path,
  args,
  types,
  onChange,
}: {
  label: string;
  path: string;
  args: Record<string, unknown> | undefined;
  /** The parameters' types (draft-types `argumentTypesFor`). */
  types: ReadonlyMap<string, ArgType>;
  onChange: (a: Record<string, unknown> | undefined) => void;
}) {
  const rows = Object.entries(args ?? {});
  const set = (next: [string, unknown][]) => onChange(next.length ? Object.fromEntries(next) : undefined);
  const setValue = (i: number, v: unknown) => set(rows.map((r, j) => (j === i ? [r[0], v] : r)));
  const listId = useId();
  const unused = [...types.keys()].filter((n) => !rows.some(([k]) => k === n));
  return (
    <div className="field" aria-label={label} style={{ gridColumn: '1 / -1' }}>
      <label>{label}</label>
      <datalist id={listId}>
        {[...types.keys()].map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      {rows.map(([k, v], i) => {
        const t = types.get(k) ?? ANY;
        const alternatives = Array.isArray(v) && !takesLists(t);
        const items = alternatives ? (v as unknown[]) : [v];
        return (
          <div key={i} className="panel" style={{ padding: '6px 8px', margin: '4px 0' }} data-testid={`argument-${k}`}>
            <div className="row" style={{ gap: 6 }}>
              <input
                aria-label={`${label}: name ${i + 1}`}
                list={listId}
                value={k}
                style={{ flex: '0 1 12em', minWidth: 0 }}
                onChange={(e) => {
                  const nt = types.get(e.target.value) ?? ANY;
                  // an untouched value starts as its new type's default (false for a boolean, the first enum value)
                  set(rows.map((r, j) => (j === i ? [e.target.value, r[1] === '' || r[1] === defaultValue(t) ? defaultValue(nt) : r[1]] : r)));
                }}
              />
              <span className="small muted">{types.has(k) ? describe(t) : 'not a parameter of the tool'}</span>
              <button type="button" className="danger" aria-label={`Remove argument ${k}`} onClick={() => set(rows.filter((_, j) => j !== i))}>
                ×
              </button>
            </div>
            {items.map((item, n) => (
              <div key={n} className="row" style={{ gap: 6, marginTop: 4 }}>
                {alternatives && <span className="small muted">or</span>}
                <ValueInput
                  label={`${label}: value ${i + 1}${alternatives ? `.${n + 1}` : ''}`}
                  t={t}
                  value={item}
                  optional={alternatives}
                  onChange={(x) => setValue(i, alternatives ? items.map((y, m) => (m === n ? x : y)) : x)}
                />
                {alternatives && (
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Remove acceptable value ${n + 1} of ${k}`}
                    onClick={() => setValue(i, items.length === 2 ? items[1 - n] : items.filter((_, m) => m !== n))}
                  >
                    ×
                  </button>
                )}
              </div>
            ))}
            {!takesLists(t) && t.kind !== 'boolean' && t.kind !== 'null' && (
              <button type="button" className="small" onClick={() => setValue(i, [...items, defaultValue(t)])}>
                Add acceptable value
              </button>
            )}
            <ErrorsAt path={`${path}.${k}`} />
          </div>
        );
      })}
      <button type="button" onClick={() => set([...rows, [unused[0] ?? `arg${rows.length + 1}`, defaultValue(types.get(unused[0] ?? '') ?? ANY)]])}>
        Add argument
      </button>
      <ErrorsAt path={path} />
    </div>
  );
}
