import type { ProviderRequest, WireTool } from '../schema/request';
import { ABSTAIN_LABEL, ERROR_LABEL } from './lexicon';
import { sentences } from './text';

/**
 * Interpretation: the call is fixed and its result injected; the simulator reports one label.
 *
 * 1. Defined meanings — if the called tool's description lists codes with meanings ("17 = TIMEOUT (…)",
 *    "17：TIMEOUT（…）"; an entry counts when its text names one of the protocol's labels), a listed code
 *    gets its label and any other code gets the protocol's error label.
 * 2. Stated range, no meanings — a code outside the range ("an integer from 10 to 39") is an error.
 * 3. Positional guess (the deliberate weakness): inside a range with no meanings, the simulator reads the
 *    code the way an over-confident reader reads an opaque scheme — low codes mean success, high codes
 *    failure (as in HTTP, 2xx vs 5xx). It splits the range into thirds: lower third → the first label the
 *    protocol lists for this tool, upper third → the last one; only in the middle third does it admit it
 *    cannot tell. It ignores the instruction to answer CANNOT_DETERMINE when meanings are missing, which
 *    is exactly the failure seed 000 reports ("code 17 read as tables available").
 * 4. Anything else (no code in the result, no range, no meanings) → the abstain label.
 *
 * The labels for a tool are those the system instruction lists in a sentence naming the tool; failing
 * that, all the protocol's labels except the abstain and error labels.
 */
export type InterpretationRule =
  'defined-meaning' | 'not-in-defined-list' | 'outside-stated-range' | 'positional-guess' | 'positional-abstain' | 'no-definition' | 'no-code';

export interface InterpretationTrace {
  rule: InterpretationRule;
  tool: string | null;
  code: number | null;
  meanings: Record<string, string>;
  range: [number, number] | null;
  toolLabels: string[];
  abstainLabel: string;
  errorLabel: string;
}

export interface InterpretationDecision {
  label: string;
  text: string;
  trace: InterpretationTrace;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Index of the first mention of a label (as written, or with spaces for underscores), case-insensitive. */
function labelIndex(text: string, label: string): number {
  const forms = [label, label.replace(/_/g, ' ')].map((f) => `(?<![A-Za-z0-9_])${escapeRe(f)}(?![A-Za-z0-9_])`);
  const m = new RegExp(forms.join('|'), 'i').exec(text);
  return m ? m.index : -1;
}

/** "12 = AVAILABLE (…); 17 = TIMEOUT (…)" → {12: AVAILABLE, 17: TIMEOUT}. Entries naming no label are ignored. */
export function parseMeanings(description: string, labels: string[]): Map<number, string> {
  const out = new Map<number, string>();
  const text = description.normalize('NFKC');
  for (const m of text.matchAll(/(?<![\w.\-–])(\d{1,4})\s*(?:=|:|→)\s*([^;\n。]+)/g)) {
    const found = labels.map((label) => ({ label, at: labelIndex(m[2], label) })).filter((x) => x.at >= 0);
    found.sort((a, b) => a.at - b.at);
    if (found.length > 0 && !out.has(Number(m[1]))) out.set(Number(m[1]), found[0].label);
  }
  return out;
}

/** "status_code, an integer from 10 to 39" / "介於 10 到 39 之間" → [10, 39], from sentences about the code. */
export function statedRange(description: string): [number, number] | null {
  for (const s of sentences(description)) {
    if (!/status|code|代碼|狀態碼/i.test(s)) continue;
    const m = /(?<![\w-])(\d+)\s*(?:–|—|-|~|〜|to|至|到)\s*(\d+)(?![\w-])/i.exec(s);
    if (m) {
      const [lo, hi] = [Number(m[1]), Number(m[2])];
      if (lo < hi) return [lo, hi];
    }
  }
  return null;
}

/** The numeric status code in a tool result: `status_code`, then any `…code`, then `status`. */
export function statusCode(result: unknown): number | null {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return null;
  const entries = Object.entries(result as Record<string, unknown>);
  for (const key of [/^status_?code$/i, /code$/i, /^status$/i]) {
    for (const [k, v] of entries) {
      if (!key.test(k)) continue;
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : null;
      if (n !== null && Number.isInteger(n)) return n;
    }
  }
  return null;
}

export function labelsForTool(system: string, tool: string, candidates: string[]): string[] {
  for (const s of sentences(system)) {
    if (!s.includes(tool)) continue;
    const found = candidates
      .map((label) => ({ label, at: new RegExp(`(?<![A-Za-z0-9_])${escapeRe(label)}(?![A-Za-z0-9_])`).exec(s)?.index ?? -1 }))
      .filter((x) => x.at >= 0)
      .sort((a, b) => a.at - b.at);
    if (found.length > 0) return found.map((x) => x.label);
  }
  return candidates;
}

export function decideInterpretation(request: ProviderRequest): InterpretationDecision {
  const zh = request.locale.startsWith('zh');
  const abstainLabel = request.labels.find((l) => ABSTAIN_LABEL.test(l)) ?? 'CANNOT_DETERMINE';
  const errorLabel = request.labels.find((l) => ERROR_LABEL.test(l)) ?? 'ERROR';
  // the result to read: the last result of the transcript, answering its last step's call
  const step = request.history[request.history.length - 1];
  const call = step?.calls[0] ?? null;
  const tool: WireTool | undefined = request.tools.find((t) => t.name === call?.name) ?? request.tools[0];
  const code = statusCode(step?.results[0]?.result);
  const substantive = request.labels.filter((l) => l !== abstainLabel && l !== errorLabel);
  const toolLabels = tool ? labelsForTool(request.system, tool.name, substantive) : substantive;
  const meanings = tool ? parseMeanings(tool.description, request.labels) : new Map<number, string>();
  const range = tool && meanings.size === 0 ? statedRange(tool.description) : null;
  const trace: InterpretationTrace = {
    rule: 'no-code',
    tool: tool?.name ?? null,
    code,
    meanings: Object.fromEntries([...meanings].map(([c, l]) => [String(c), l])),
    range,
    toolLabels,
    abstainLabel,
    errorLabel,
  };
  const answer = (rule: InterpretationRule, label: string, en: string, zhText: string): InterpretationDecision => {
    trace.rule = rule;
    return { label, text: `${request.markers.status} ${label}\n${zh ? zhText : en}`, trace };
  };

  if (code === null) return answer('no-code', abstainLabel, 'The result carries no status code I can read.', '結果中沒有可讀取的狀態代碼。');
  if (meanings.size > 0) {
    const label = meanings.get(code);
    if (label) return answer('defined-meaning', label, `The tool's definition says code ${code} means ${label}.`, `工具定義說明代碼 ${code} 表示 ${label}。`);
    return answer('not-in-defined-list', errorLabel, `Code ${code} is not one of the codes the tool defines.`, `代碼 ${code} 不在工具定義的代碼清單中。`);
  }
  if (!range) return answer('no-definition', abstainLabel, `The definition does not say what code ${code} means.`, `工具定義沒有說明代碼 ${code} 的意義。`);
  const [lo, hi] = range;
  if (code < lo || code > hi)
    return answer('outside-stated-range', errorLabel, `Code ${code} is outside the stated range ${lo}–${hi}.`, `代碼 ${code} 超出工具說明的範圍 ${lo}–${hi}。`);
  const band = Math.min(2, Math.floor(((code - lo) * 3) / (hi - lo + 1)));
  if (band === 1 || toolLabels.length === 0)
    return answer('positional-abstain', abstainLabel, `The definition does not say what code ${code} means.`, `工具定義沒有說明代碼 ${code} 的意義。`);
  const label = band === 0 ? toolLabels[0] : toolLabels[toolLabels.length - 1];
  const where = band === 0 ? { en: 'low', zh: '前段' } : { en: 'high', zh: '後段' };
  return answer(
    'positional-guess',
    label,
    `Code ${code} is in the ${where.en} part of ${lo}–${hi}, so it most likely means ${label}.`,
    `代碼 ${code} 位於 ${lo}–${hi} 的${where.zh}，應該是 ${label}。`,
  );
}
