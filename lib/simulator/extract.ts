import {
  ACTIONS,
  HEAD_NOUNS,
  MONEY_CUES,
  MONEY_PREFIX,
  MONTHS,
  NUMBER_WORDS_EN,
  NUMBER_WORDS_ZH,
  PEOPLE_CUES,
  STOPWORDS,
  ZH_NAME_STOP_CHARS,
  ZH_NAME_STOP_WORDS,
  type HeadNoun,
} from './lexicon';
import { isHan, stem } from './text';

// Schema-guided argument extraction: the parameter's JSON Schema (type, format, pattern, enum) and its
// name/description decide what to look for in the task; nothing else is consulted. Dates, times and
// id-like tokens are found (and masked) first, so their digits are never read as counts or amounts.

export interface ParamSpec {
  name: string;
  type: string;
  description: string;
  pattern: string | null;
  enumValues: string[] | null;
  format: string | null;
}

export interface SchemaInfo {
  params: ParamSpec[];
  required: string[];
}

export type FieldKind = 'enum' | 'date' | 'time' | 'pattern' | 'id' | 'integer' | 'number' | 'text' | 'other';

export interface Extraction {
  args: Record<string, string | number>;
  /** Required fields with no value in the task. */
  missing: string[];
  /** For each filled field, which rule found it (inspectable in the trace). */
  how: Record<string, string>;
}

function asRecord(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function readSchema(parameters: Record<string, unknown>): SchemaInfo {
  const props = asRecord(parameters.properties) ?? {};
  const params = Object.entries(props).map(([name, raw]): ParamSpec => {
    const p = asRecord(raw) ?? {};
    const enumValues = strings(p.enum);
    return {
      name,
      type: str(p.type) ?? 'string',
      description: str(p.description) ?? '',
      pattern: str(p.pattern),
      enumValues: enumValues.length > 0 ? enumValues : null,
      format: str(p.format),
    };
  });
  return { params, required: strings(parameters.required) };
}

export function fieldKind(p: ParamSpec): FieldKind {
  const name = p.name.toLowerCase();
  if (p.enumValues) return 'enum';
  if (p.type === 'integer') return 'integer';
  if (p.type === 'number') return 'number';
  if (p.type !== 'string') return 'other';
  if (p.format === 'date' || /(^|_)date$/.test(name) || /YYYY-MM-DD|日期/.test(p.description)) return 'date';
  if (p.format === 'time' || /(^|_)time$/.test(name) || /HH:MM|時間/.test(p.description)) return 'time';
  if (p.pattern) return 'pattern';
  if (/(^|_)(number|id|code|no|ref)$/.test(name)) return 'id';
  return 'text';
}

/** The task text with consumed spans blanked out (same length, so indexes stay valid). */
class Work {
  constructor(public text: string) {}
  take(start: number, end: number): void {
    this.text = this.text.slice(0, start) + ' '.repeat(end - start) + this.text.slice(end);
  }
}

interface Found<T> {
  value: T;
  start: number;
  end: number;
}

function earliest<T>(text: string, patterns: { re: RegExp; read: (m: RegExpExecArray) => T | null }[]): Found<T> | null {
  let best: Found<T> | null = null;
  for (const { re, read } of patterns) {
    const flags = re.flags.includes('g') ? re.flags : `${re.flags}g`;
    for (const m of text.matchAll(new RegExp(re.source, flags))) {
      const value = read(m as RegExpExecArray);
      if (value === null) continue;
      if (!best || m.index < best.start) best = { value, start: m.index, end: m.index + m[0].length };
      break;
    }
  }
  return best;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const month = (name: string) => MONTHS[name.toLowerCase().slice(0, 3)] ?? 0;

function ymd(y: string | number, m: string | number, d: string | number): string | null {
  const [yy, mm, dd] = [Number(y), Number(m), Number(d)];
  if (mm < 1 || mm > 12 || dd < 1 || dd > 31) return null;
  return `${yy}-${pad(mm)}-${pad(dd)}`;
}

/** 2027-01-15, 2027/1/15, 2027年1月15日, 15 January 2027, January 15, 2027 → 2027-01-15. */
export function findDate(text: string): Found<string> | null {
  return earliest(text, [
    { re: /(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/, read: (m) => ymd(m[1], m[2], m[3]) },
    { re: /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日號号]/, read: (m) => ymd(m[1], m[2], m[3]) },
    { re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})\\b`, 'i'), read: (m) => ymd(m[3], month(m[2]), m[1]) },
    { re: new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i'), read: (m) => ymd(m[3], month(m[1]), m[2]) },
  ]);
}

/** 19:30, 7:30 pm, 7 p.m., 晚上7點半, 中午12點 → HH:MM (24-hour). */
export function findTime(text: string): Found<string> | null {
  const hm = (h: number, m: number) => (h <= 23 && m <= 59 ? `${pad(h)}:${pad(m)}` : null);
  // am/pm first: on the same start it wins over the bare H:MM (earliest keeps the first pattern on a tie)
  return earliest(text, [
    {
      re: /\b(\d{1,2})(?:[:.]([0-5]\d))?\s*([ap])\.?\s?m\b\.?/i,
      read: (m) => hm((Number(m[1]) % 12) + (m[3].toLowerCase() === 'p' ? 12 : 0), Number(m[2] ?? 0)),
    },
    { re: /(?<![\d:])([01]?\d|2[0-3])[:：]([0-5]\d)(?![\d:])/, read: (m) => hm(Number(m[1]), Number(m[2])) },
    {
      re: /(凌晨|清晨|早上|上午|中午|下午|傍晚|晚上)?\s*(\d{1,2})\s*[點点](?:\s*(半|(\d{1,2})\s*分))?/,
      read: (m) => {
        let h = Number(m[2]);
        if (['下午', '傍晚', '晚上'].includes(m[1] ?? '') && h < 12) h += 12;
        if (m[1] === '中午' && h < 11) h += 12;
        return hm(h, m[3] === '半' ? 30 : Number(m[4] ?? 0));
      },
    },
  ]);
}

const GENERIC_ID = /\b[A-Z]{2,}[-_]?\d[\w-]*\b/;

function patternRegex(pattern: string): RegExp | null {
  const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
  try {
    return new RegExp(body, 'u');
  } catch {
    return null;
  }
}

interface NumberToken {
  value: number;
  start: number;
  end: number;
}

function zhNumeral(s: string): number {
  if (s.includes('十')) {
    const [tens, ones] = s.split('十');
    return (tens ? (NUMBER_WORDS_ZH[tens] ?? 1) : 1) * 10 + (ones ? (NUMBER_WORDS_ZH[ones] ?? 0) : 0);
  }
  return NUMBER_WORDS_ZH[s] ?? Number.NaN;
}

function findNumbers(text: string): NumberToken[] {
  const out: NumberToken[] = [];
  for (const m of text.matchAll(/(?<![\w.,$])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\w)/g))
    out.push({ value: Number(`${m[1].replace(/,/g, '')}${m[2] ?? ''}`), start: m.index, end: m.index + m[0].length });
  const words = new RegExp(`\\b(${Object.keys(NUMBER_WORDS_EN).join('|')})\\b`, 'gi');
  for (const m of text.matchAll(words)) out.push({ value: NUMBER_WORDS_EN[m[1].toLowerCase()], start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(/[一二兩三四五六七八九十]{1,3}(?=\s*[位人名])/g)) {
    const value = zhNumeral(m[0]);
    if (Number.isFinite(value)) out.push({ value, start: m.index, end: m.index + m[0].length });
  }
  return out.sort((a, b) => a.start - b.start);
}

type NumberConcept = 'people' | 'money' | null;

function numberConcept(p: ParamSpec): NumberConcept {
  const text = `${p.name} ${p.description}`.toLowerCase();
  if (/amount|total|price|sum|fee|cost|金額|費用/.test(text)) return 'money';
  if (/size|people|guest|diner|party|person|pax|人數/.test(text)) return 'people';
  return null;
}

function hasCue(text: string, n: NumberToken, concept: NumberConcept): boolean {
  if (!concept) return false;
  const cues = concept === 'people' ? PEOPLE_CUES : MONEY_CUES;
  const after = text.slice(n.end);
  const word = /^\s*([A-Za-z]+)/.exec(after)?.[1]?.toLowerCase();
  const han = /^\s*(\p{Script=Han})/u.exec(after)?.[1];
  if ((word && cues.en.includes(word)) || (han && cues.zh.includes(han))) return true;
  return concept === 'money' && MONEY_PREFIX.test(text.slice(0, n.start));
}

/** Capitalised words that start a sentence rather than a name: stopwords and request verbs ("Book …", "Please …"). */
const NOT_A_NAME = new Set([...STOPWORDS, ...ACTIONS.flatMap((a) => a.en), 'check', 'find', 'look', 'show', 'tell', 'get'].map(stem));

/** English: capitalised words (and commas between them) right before the head noun: "Sea Breeze Eatery, Xinyi branch". */
function namedEn(task: string, words: string[]): string | null {
  for (const word of words) {
    for (const m of task.matchAll(new RegExp(`\\b${word}\\b`, 'gi'))) {
      let start = m.index;
      let rest = task.slice(0, start);
      for (;;) {
        const w = /([A-Z][\p{L}\p{N}'’&-]*)(,\s*|\s+)$/u.exec(rest);
        if (!w || NOT_A_NAME.has(stem(w[1]))) break;
        start = w.index;
        rest = rest.slice(0, w.index);
      }
      if (start < m.index) return task.slice(start, m.index + m[0].length).trim();
    }
  }
  return null;
}

/** Chinese: Han characters right before the head noun, up to a function word: "海風餐館信義店". */
function namedZh(task: string, words: string[]): string | null {
  for (const word of words) {
    for (let at = task.indexOf(word); at >= 0; at = task.indexOf(word, at + word.length)) {
      let start = at;
      while (start > 0) {
        const ch = task[start - 1];
        if (!isHan(ch) || ZH_NAME_STOP_CHARS.has(ch) || ZH_NAME_STOP_WORDS.includes(task.slice(start - 2, start))) break;
        start--;
      }
      if (start < at) return task.slice(start, at + word.length);
    }
  }
  return null;
}

export function headNoun(p: ParamSpec): HeadNoun | null {
  const words = p.name.toLowerCase().split(/[_\s-]+/);
  return HEAD_NOUNS[words[words.length - 1]] ?? null;
}

export function extractArguments(task: string, schema: SchemaInfo): Extraction {
  const work = new Work(task.normalize('NFKC'));
  const args = Object.create(null) as Record<string, string | number>; // keyed by parameter names
  const how = Object.create(null) as Record<string, string>;
  const kinds = new Map(schema.params.map((p) => [p.name, fieldKind(p)]));
  const fields = (kind: FieldKind) => schema.params.filter((p) => kinds.get(p.name) === kind);

  // 1. Tokens with a shape of their own: schema patterns, id-like codes, dates, times (masked as found).
  for (const p of fields('pattern')) {
    const re = p.pattern ? patternRegex(p.pattern) : null;
    const m = re?.exec(work.text);
    if (m) {
      args[p.name] = m[0];
      how[p.name] = 'schema pattern';
      work.take(m.index, m.index + m[0].length);
    }
  }
  const idFields = fields('id');
  for (let m = GENERIC_ID.exec(work.text); m; m = GENERIC_ID.exec(work.text)) {
    const p = idFields.find((f) => args[f.name] === undefined);
    if (p) {
      args[p.name] = m[0];
      how[p.name] = 'id-like token';
    }
    work.take(m.index, m.index + m[0].length);
  }
  for (const [kind, find] of [
    ['date', findDate],
    ['time', findTime],
  ] as const) {
    const slots = fields(kind);
    for (let f = find(work.text); f; f = find(work.text)) {
      const p = slots.find((s) => args[s.name] === undefined);
      if (p) {
        args[p.name] = f.value;
        how[p.name] = `${kind} → ${kind === 'date' ? 'YYYY-MM-DD' : 'HH:MM'}`;
      }
      work.take(f.start, f.end);
    }
  }

  // 2. Enums: the value itself, with spaces for underscores, or a gloss the description gives in brackets.
  const lower = work.text.toLowerCase();
  for (const p of fields('enum')) {
    let best: { value: string; at: number } | null = null;
    for (const value of p.enumValues ?? []) {
      for (const form of enumForms(value, p.description)) {
        const at = lower.indexOf(form.toLowerCase());
        if (at >= 0 && (!best || at < best.at)) best = { value, at };
      }
    }
    if (best) {
      args[p.name] = best.value;
      how[p.name] = 'enum value or its gloss';
    }
  }

  // 3. Numbers: the one next to a cue word of the field (people / money); else, for a required field,
  //    the only number left.
  const numbers = findNumbers(work.text);
  const used = new Set<NumberToken>();
  for (const p of schema.params.filter((x) => ['integer', 'number'].includes(kinds.get(x.name) ?? ''))) {
    const fits = (n: NumberToken) => !used.has(n) && (p.type === 'number' || Number.isInteger(n.value));
    const concept = numberConcept(p);
    let pick = numbers.find((n) => fits(n) && hasCue(work.text, n, concept));
    let rule = `number next to a ${concept} cue`;
    if (!pick && schema.required.includes(p.name)) {
      const left = numbers.filter(fits);
      if (left.length === 1) [pick, rule] = [left[0], 'the only number left'];
    }
    if (pick) {
      used.add(pick);
      args[p.name] = pick.value;
      how[p.name] = rule;
    }
  }

  // 4. Free text: the name in front of the field's head noun (branch → "… branch" / "…店").
  for (const p of fields('text')) {
    const head = headNoun(p);
    if (!head) continue;
    const value = namedEn(task, head.en) ?? namedZh(task.normalize('NFKC'), head.zh);
    if (value) {
      args[p.name] = value;
      how[p.name] = 'name before its head noun';
    }
  }

  const missing = schema.required.filter((name) => args[name] === undefined);
  return { args, missing, how };
}

function enumForms(value: string, description: string): string[] {
  const forms = [value, value.replace(/[_-]+/g, ' ')];
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const m of description.matchAll(new RegExp(`${escaped}\\s*[（(]([^）)]+)[）)]`, 'g')))
    forms.push(
      ...m[1]
        .split(/[、/,，]|\s+or\s+|或/)
        .map((s) => s.trim())
        .filter(Boolean),
    );
  return forms;
}

/** What the simulator invents for a missing required field when it calls anyway (seed 000's "main branch"). */
export function inventValue(p: ParamSpec, locale: string): string | null {
  const invent = headNoun(p)?.invent;
  if (!invent) return null;
  return locale.startsWith('zh') ? invent.zh : invent.en;
}
