// Redaction before anything is stored (docs/traces.md): every string of a candidate passes through here, and
// only the redacted text goes on. What was found is counted by kind; the text found is never kept.

export const REDACTION_KINDS = ['api-key', 'bearer-token', 'email', 'card-number', 'phone', 'custom'] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

interface Rule {
  kind: RedactionKind;
  re: RegExp;
  /** A second look at a match (card numbers: the Luhn check). */
  accept?: (match: string) => boolean;
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// Order matters: keys and tokens first (they may hold digits and @), then e-mail, cards, phones.
const BUILT_IN: Rule[] = [
  {
    kind: 'api-key',
    re: /\b(?:sk-(?:ant-|proj-)?[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{35}|gh[pousr]_[A-Za-z0-9]{30,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{20,})/g,
  },
  { kind: 'bearer-token', re: /\bBearer\s+[A-Za-z0-9\-._~+/]{8,}=*/gi },
  { kind: 'email', re: /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g },
  { kind: 'card-number', re: /\b\d(?:[ -]?\d){12,18}\b/g, accept: (m) => luhn(m.replace(/[ -]/g, '')) },
  {
    kind: 'phone',
    re: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{2,4}){2,5}(?![\w-])/g,
    // At least eight digits, and not a date (2026-12-04) or a dotted version.
    accept: (m) => m.replace(/\D/g, '').length >= 8 && !/^\d{4}-\d{2}-\d{2}$/.test(m) && !/^\d+(\.\d+)+$/.test(m),
  },
];

export interface RedactionCounts {
  /** Matches replaced, by kind. */
  byKind: Record<RedactionKind, number>;
  /** Matches of each user pattern, keyed by the pattern's source. */
  byPattern: Record<string, number>;
}

export const emptyCounts = (): RedactionCounts => ({
  byKind: { 'api-key': 0, 'bearer-token': 0, email: 0, 'card-number': 0, phone: 0, custom: 0 },
  byPattern: {},
});

export class Redactor {
  private readonly rules: Rule[];
  readonly counts: RedactionCounts = emptyCounts();

  /** @param patterns the user's own patterns (regular expression sources); a bad one is an error naming it. */
  constructor(patterns: string[] = []) {
    const custom = patterns.map((p): Rule => {
      try {
        return { kind: 'custom', re: new RegExp(p, 'g') };
      } catch (e) {
        throw new Error(`--redact ${JSON.stringify(p)} is not a valid regular expression: ${(e as Error).message}`);
      }
    });
    for (const p of patterns) this.counts.byPattern[p] = 0;
    this.rules = [...custom, ...BUILT_IN];
  }

  text(s: string): string {
    let out = s;
    for (const rule of this.rules) {
      out = out.replace(rule.re, (m) => {
        if (m.length === 0 || (rule.accept && !rule.accept(m))) return m;
        this.counts.byKind[rule.kind]++;
        if (rule.kind === 'custom') this.counts.byPattern[rule.re.source]++;
        return `[redacted:${rule.kind}]`;
      });
    }
    return out;
  }

  /** Every string of a value, object keys included, redacted; the shape kept. */
  deep<T>(v: T): T {
    if (typeof v === 'string') return this.text(v) as T;
    if (Array.isArray(v)) return v.map((x: unknown) => this.deep(x)) as T;
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[this.text(k)] = this.deep(x);
      return out as T;
    }
    return v;
  }
}
