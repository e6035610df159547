import type { Markers } from '../schema/experiment';
import type { Marker } from '../schema/observation';

export interface ParsedText {
  marker: Marker | null;
  label: string | null;
  /** Where in the text the winning marker starts (evidence). */
  index: number | null;
}

/**
 * Markers are matched (docs/design.md#scoring-rules) on the final text, case-insensitively, and the first marker wins.
 * `STATUS: <LABEL>` reports a label (upper-cased, letters/digits/underscore).
 */
export function parseFinalText(text: string | null | undefined, markers: Markers): ParsedText {
  if (!text) return { marker: null, label: null, index: null };
  const lower = text.toLowerCase();
  const found: { kind: 'CLARIFY' | 'STOP' | 'STATUS'; index: number; marker: string }[] = [];
  for (const [kind, m] of [
    ['CLARIFY', markers.clarify],
    ['STOP', markers.stop],
    ['STATUS', markers.status],
  ] as const) {
    const i = lower.indexOf(m.toLowerCase());
    if (i >= 0) found.push({ kind, index: i, marker: m });
  }
  if (found.length === 0) return { marker: null, label: null, index: null };
  found.sort((a, b) => a.index - b.index);
  const first = found[0];
  if (first.kind !== 'STATUS') return { marker: first.kind, label: null, index: first.index };
  const rest = text.slice(first.index + first.marker.length);
  const m = /^[\s*_`"'“”「」]*([A-Za-z][A-Za-z0-9_]*)/u.exec(rest);
  return { marker: null, label: m ? m[1].toUpperCase() : null, index: first.index };
}
