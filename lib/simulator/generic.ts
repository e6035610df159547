import { splitIdentifier } from './text';

/** What this rule reads of a tool's profile (select.ts ToolProfile): its name and the text its definition affirms. */
interface Profile {
  name: string;
  positiveText: string;
}

/**
 * The third simulated model, `simulated-generic-preferring-v1` (seed 001's mechanism): it already knows generic
 * tools — a browser, a web search, a fetcher, a shell — and prefers one of those over a specific tool it has
 * never met, unless the specific tool's definition gives a reason it could check. Like the others it reads only
 * what a model is sent (names, descriptions, parameter descriptions, the task), never a condition's id or label.
 *
 * 1. The lexical model picks its tool (select.ts).
 * 2. If that tool is specific (not generic), a generic tool is among the candidates, and the specific tool's
 *    definition states no checkable reason, the model takes the generic tool instead.
 *
 * A checkable reason is a stated fact of one of three kinds, affirmed outside a negation:
 * - whose session or account the tool acts on (`owner's … session`, `signed-in`, `logged in`, `account`);
 * - what it caches (`cache`, `cached`);
 * - what protects a write (`audited`, `dry-run`, `confirmation`, `approval`, `idempotency key`, `undo`).
 * An instruction without a reason ("Prefer this over a browser") is not one: it tells, it does not explain.
 */

/** Name words that make a tool generic: ones a model meets everywhere. */
const GENERIC_NAME_WORDS = new Set(['browser', 'browse', 'web', 'fetch', 'http', 'curl', 'internet', 'shell', 'bash', 'terminal', 'google', 'bing']);

export function isGenericTool(name: string): boolean {
  const words = splitIdentifier(name).toLowerCase().split(/\s+/).filter(Boolean);
  return words.some((w) => GENERIC_NAME_WORDS.has(w)) || (words.length === 1 && words[0] === 'search');
}

export const REASON_CUES: readonly { kind: 'session' | 'cache' | 'protection'; pattern: RegExp }[] = [
  { kind: 'session', pattern: /\b(signed|logged)[- ]in\b|\b(own|owner['’]?s?|user['’]s|their|your)\b[^.;\n]{0,30}\b(session|account)s?\b|工作階段|登入/iu },
  { kind: 'cache', pattern: /\bcach(e|es|ed|ing)\b|快取/iu },
  { kind: 'protection', pattern: /\baudit(ed|s)?\b|\bdry[- ]run\b|\bconfirm(ation|ed)\b|\bapprov(al|ed)\b|\bidempoten(t|cy)\b|\bundo(ne|able)?\b|稽核|確認/iu },
];

/** The reasons a tool's definition states (outside negations), by kind; empty when it gives none. */
export function checkableReasons(profile: Pick<Profile, 'positiveText'>): string[] {
  return REASON_CUES.filter((c) => c.pattern.test(profile.positiveText)).map((c) => c.kind);
}

export interface GenericPreference {
  /** The lexical model's pick. */
  lexical: string;
  /** The generic tool among the candidates (the first listed), if any. */
  generic: string | null;
  /** Reasons the lexical pick's definition gives, when it is specific. */
  reasons: string[];
  /** The tool the generic-preferring model calls. */
  chosen: string;
}

/** Step 2: keep the lexical pick, or take the first listed generic tool when the pick gives no reason. */
export function preferGeneric(lexical: Profile, profiles: readonly Profile[]): GenericPreference {
  const generic = profiles.find((p) => isGenericTool(p.name))?.name ?? null;
  if (isGenericTool(lexical.name) || generic === null) return { lexical: lexical.name, generic, reasons: [], chosen: lexical.name };
  const reasons = checkableReasons(lexical);
  return { lexical: lexical.name, generic, reasons, chosen: reasons.length > 0 ? lexical.name : generic };
}
