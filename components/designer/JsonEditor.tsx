'use client';

import { useState } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { FieldLabel } from './context';

const extensions = [json()];

/**
 * A JSON code editor (CodeMirror 6, bundled with the app: nothing is loaded from a CDN). The text is
 * checked as you type; only valid JSON of the expected kind reaches `onValid`, the rest is shown as an error.
 */
export function JsonEditor({
  label,
  context,
  value,
  onValid,
  expect = 'object',
  testId,
  height = '160px',
}: {
  label: string;
  /** As TextField's. */
  context?: string;
  value: unknown;
  onValid: (v: unknown) => void;
  expect?: 'object' | 'any';
  testId?: string;
  height?: string;
}) {
  const canonical = JSON.stringify(value ?? (expect === 'object' ? {} : null), null, 2);
  const [text, setText] = useState(canonical);
  const [error, setError] = useState<string | null>(null);
  // the draft changed elsewhere (the JSON view, copy from baseline): show it, unless it is what we typed
  // (adjusted while rendering, as React recommends for state derived from a prop, not in an effect)
  const [shown, setShown] = useState(canonical);
  if (shown !== canonical) {
    setShown(canonical);
    setText((t) => {
      try {
        if (JSON.stringify(JSON.parse(t)) === JSON.stringify(value)) return t;
      } catch {
        /* the text being typed is not JSON yet */
      }
      return canonical;
    });
  }
  return (
    <div className="field" data-testid={testId}>
      <FieldLabel label={label} context={context} />
      <div style={{ border: '1px solid var(--line-strong)', borderRadius: 4 }} aria-label={context ? `${label} (${context})` : label}>
        <CodeMirror
          value={text}
          height={height}
          extensions={extensions}
          basicSetup={{ closeBrackets: false, autocompletion: false, foldGutter: false }}
          onChange={(t) => {
            setText(t);
            try {
              const v = JSON.parse(t) as unknown;
              if (expect === 'object' && (!v || typeof v !== 'object' || Array.isArray(v))) {
                setError('must be a JSON object');
                return;
              }
              setError(null);
              onValid(v);
            } catch (e) {
              setError(`not valid JSON: ${(e as Error).message}`);
            }
          }}
        />
      </div>
      {error && (
        <div className="field-error" role="alert" data-testid="json-syntax-error">
          {error}
        </div>
      )}
    </div>
  );
}
