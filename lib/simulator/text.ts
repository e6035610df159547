import { NEGATION_EN, NEGATION_ZH, STOPWORDS } from './lexicon';

// Text primitives of the simulator: tokens (English stems, Chinese character bigrams), sentences, and the
// split of a sentence into what it affirms and what it negates.

const HAN = /\p{Script=Han}/u;

export function isHan(ch: string): boolean {
  return HAN.test(ch);
}

/** A deliberately small suffix stripper (not Porter): enough to equate book/booking, available/availability. */
export function stem(word: string): string {
  let s = word.toLowerCase();
  if (s.length <= 3) return s;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is)$/.test(s)) s = s.slice(0, -1);
  for (const suffix of ['ability', 'ibility', 'ation', 'able', 'ible', 'ing', 'ed', 'ment', 'ly']) {
    if (s.endsWith(suffix) && s.length - suffix.length >= 3) {
      s = s.slice(0, -suffix.length);
      if (['ing', 'ed'].includes(suffix) && /([bdgmnprt])\1$/.test(s)) s = s.slice(0, -1);
      break;
    }
  }
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  return s;
}

/** Split snake_case and camelCase identifiers into words. */
export function splitIdentifier(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ');
}

/**
 * Tokens for lexical similarity: English words → stems (stopwords and bare numbers dropped); each run of
 * Han characters → its character bigrams (a single character stays a unigram). No dictionary, no
 * segmentation: bigrams are the usual cheap stand-in for Chinese words.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const normal = text.normalize('NFKC');
  for (const m of normal.matchAll(/\p{Script=Han}+|[\p{Script=Latin}\p{N}]+(?:['’]\p{Script=Latin}+)?/gu)) {
    const run = m[0];
    if (isHan(run[0])) {
      if (run.length === 1) out.push(run);
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
      continue;
    }
    const word = run.toLowerCase().replace(/['’]s$/, '');
    if (/^\d+$/.test(word) || STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** Sentences (and `;`-clauses): the unit the negation and ask rules look at. */
export function sentences(text: string): string[] {
  return text
    .normalize('NFKC')
    .split(/(?<=[.!?;])\s+|[。！？；;\n]+/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * What a sentence affirms and what it negates: everything from the first negation cue to the end of the
 * sentence is negated ("It never creates, changes or cancels a booking" negates create/change/cancel).
 */
export function splitNegation(sentence: string): { positive: string; negative: string } {
  const indexes = [NEGATION_EN.exec(sentence)?.index, NEGATION_ZH.exec(sentence)?.index].filter((i): i is number => i !== undefined);
  if (indexes.length === 0) return { positive: sentence, negative: '' };
  const at = Math.min(...indexes);
  return { positive: sentence.slice(0, at), negative: sentence.slice(at) };
}

/** Positive and negative text of a whole description, sentence by sentence. */
export function scopes(text: string): { positive: string; negative: string } {
  const parts = sentences(text).map(splitNegation);
  return { positive: parts.map((p) => p.positive).join('\n'), negative: parts.map((p) => p.negative).join('\n') };
}

/** Does `text` mention the English stem or the Chinese word? */
export function mentions(text: string, tokens: Set<string>, en: string[], zh: string[]): boolean {
  return en.some((s) => tokens.has(s)) || zh.some((w) => text.includes(w));
}
