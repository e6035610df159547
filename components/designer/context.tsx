'use client';

import { createContext, useContext } from 'react';
import type { LintFinding } from '@/lib/design/lint';
import type { DesignerFieldSpec } from '@/lib/scoring/fields/types';
import type { DSpec } from './draft-types';

export interface DesignerApi {
  draft: DSpec;
  /** Change the draft (a copy is passed to `fn` to mutate); it is saved shortly after. */
  update(fn: (d: DSpec) => void): void;
  issues: { path: string; message: string }[];
  findings: LintFinding[];
  /** The check fields the case cards edit, as their modules describe them (lib/scoring/fields). */
  fields: readonly DesignerFieldSpec[];
}

export const DesignerContext = createContext<DesignerApi | null>(null);

export function useDesigner(): DesignerApi {
  const api = useContext(DesignerContext);
  if (!api) throw new Error('useDesigner outside the designer');
  return api;
}

/** The DOM id of the field bound to a draft path (what the contents jump to). */
export const fieldId = (path: string) => `f-${path.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** The errors of exactly this path, shown at the field. */
export function ErrorsAt({ path }: { path: string }) {
  const { issues } = useDesigner();
  const mine = issues.filter((i) => i.path === path);
  if (mine.length === 0) return null;
  return (
    <div className="field-error" role="alert" data-testid="field-error" data-path={path}>
      {mine.map((i, k) => (
        <div key={k}>
          <code>{path}</code>: {i.message}
        </div>
      ))}
    </div>
  );
}

/** A field's label; its context, in grey, is part of its name ("Description of get_invoice (clear, invoice/en)"). */
export function FieldLabel({ htmlFor, label, context }: { htmlFor?: string; label: string; context?: string }) {
  return (
    <label htmlFor={htmlFor}>
      {label}
      {context && <span className="muted small"> ({context})</span>}
    </label>
  );
}

/** A labelled text input bound to one draft field. */
export function TextField({
  label,
  context,
  path,
  value,
  onChange,
  multiline = false,
  rows = 3,
  placeholder,
}: {
  label: string;
  /** Where the field sits (a condition and catalog, a case), when the same label repeats down the page. */
  context?: string;
  path: string;
  value: string;
  onChange: (v: string) => void;
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
}) {
  const id = fieldId(path);
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} context={context} />
      {multiline ? (
        <textarea id={id} rows={rows} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} style={{ fontFamily: 'inherit' }} />
      ) : (
        <input id={id} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} style={{ width: '100%' }} />
      )}
      <ErrorsAt path={path} />
    </div>
  );
}

export function SelectField({
  label,
  context,
  path,
  value,
  options,
  onChange,
}: {
  label: string;
  /** As TextField's. */
  context?: string;
  path: string;
  value: string;
  options: readonly (string | { value: string; label: string })[];
  onChange: (v: string) => void;
}) {
  const id = fieldId(path);
  return (
    <div className="field">
      <FieldLabel htmlFor={id} label={label} context={context} />
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => {
          const v = typeof o === 'string' ? o : o.value;
          return (
            <option key={v} value={v}>
              {typeof o === 'string' ? (o === '' ? '—' : o) : o.label}
            </option>
          );
        })}
      </select>
      <ErrorsAt path={path} />
    </div>
  );
}
