import type { ToolFact } from '../schema/experiment';

// The facts a server enforces for a tool that no protocol field carries (docs/linter.md "Facts"). Seed 001:
// the server acts on the owner's signed-in session, caches its reads and audits and dry-run-gates its writes,
// and "there is no field in the protocol that carries 'this call is audited'. The description is the only
// place." An author records them on the scenario's tool; the linter's `fact-not-said` asks the description
// to say each one, and the rule-driven rewrite of that finding appends the sentence below.

interface FactText {
  /** What the fact is, for the designer and the docs. */
  what: string;
  /** The words that say it (English and Traditional Chinese, the locales we ship). */
  said: RegExp;
  /** The sentence a rule-driven rewrite appends, by locale family; `terse` for descriptions it would make too alike. */
  sentence: { en: string; zh: string; terse: string };
}

export const FACT_TEXT: Record<ToolFact, FactText> = {
  'owner-session': {
    what: "acts on the owner's own signed-in session or account",
    said: /\b(signed|logged)[- ]in\b|\b(own|owner['’]?s?|user['’]s|their|your)\b[^.;\n]{0,30}\b(session|account)s?\b|工作階段|登入/iu,
    sentence: { en: "It acts on the owner's own signed-in session.", zh: '它在擁有者自己已登入的工作階段上執行。', terse: 'Signed-in session.' },
  },
  cached: {
    what: 'caches its results, so a repeated call is answered without asking the source again',
    said: /\bcach(e|es|ed|ing)\b|快取/iu,
    sentence: { en: 'Results are cached: a repeated call is answered from the cache.', zh: '結果會快取：重複的呼叫由快取回答。', terse: 'Cached.' },
  },
  audited: {
    what: 'every call is written to an audit log',
    said: /\baudit(ed|s|ing)?\b|稽核/iu,
    sentence: { en: 'Every call is audited.', zh: '每次呼叫都會稽核。', terse: 'Audited.' },
  },
  'dry-run': {
    what: 'honours a dry-run mode in which nothing is changed',
    said: /\bdry[- ]run\b|試運行/iu,
    sentence: { en: 'It honours dry-run mode.', zh: '它支援試運行模式。', terse: 'Dry-run mode.' },
  },
  idempotent: {
    what: 'calling it twice with the same arguments has the effect of calling it once',
    said: /\bidempoten(t|cy)\b|冪等/iu,
    sentence: {
      en: 'It is idempotent: a repeated call with the same arguments changes nothing more.',
      zh: '它是冪等的：以相同參數重複呼叫不會再改變任何東西。',
      terse: 'Idempotent.',
    },
  },
};

/** The recorded facts a description does not say, in the vocabulary's order. */
export function unsaidFacts(description: string, facts: readonly ToolFact[] | undefined): ToolFact[] {
  if (!facts?.length) return [];
  return facts.filter((f) => !FACT_TEXT[f].said.test(description));
}

/**
 * The sentences that say `facts`, for a locale (Chinese locales get the Chinese sentence): one per fact, or
 * `terse` — a word or three each, for short descriptions that whole sentences shared by their siblings would
 * make alike (the linter's `overlapping-descriptions`).
 */
export function factSentences(facts: readonly ToolFact[], locale: string, terse = false): string {
  const zh = /^zh\b/i.test(locale);
  return facts.map((f) => FACT_TEXT[f].sentence[zh ? 'zh' : terse ? 'terse' : 'en']).join(zh ? '' : ' ');
}
