import type { Condition, ExperimentSpec, OrderPolicy, Study, ToolDefinition } from '../schema/experiment';
import { baselineOf } from '../schema/experiment';
import { TEXT_MAX } from '../schema/common';
import { CODE_MEANING, WRITE_WORDS, catalogContext, firstSentence, isVaguePurpose, lintCatalog, type CatalogContext, type LintFinding, type LintRule } from './lint';
import { naturalDefinitions } from './matrix';
import { splitName } from './retriever';
import { boundedTokenCount } from './tokens';

// Variants that isolate the cause (docs/designer.md "Variants"): a rewrite changes length and
// content at once, and a good description can fail for one missing fact. Two generated kinds, ordinary
// conditions paired with the baseline like the ablations (ablations.ts):
// - a length-matched placebo: the baseline's descriptions padded with neutral sentences from a fixed pool
//   (PLACEBO_POOL) to the treatment's length, ±5% in tokens (o200k_base, tokens.ts) — "longer" apart from "better";
// - single-defect mutants: a good condition with one linter-detectable defect at a time; each mutation is
//   kept only where the linter then finds exactly that rule and nothing the source did not have.
// For more than two candidate tools, the study's candidate orders become a Latin square (rotations), so
// every condition sees every tool at every position equally often.

/** The placebo's length tolerance: ±5% of the treatment's tokens. */
export const PLACEBO_TOLERANCE = 0.05;

/**
 * Neutral text that adds no fact: sentences that say nothing about any tool, in a fixed order. The last
 * entries are short, to close a small gap; `…` (one token) closes a gap of one.
 */
export const PLACEBO_POOL = {
  en: [
    'The text above describes this tool.',
    'Nothing further is said here.',
    'The description ends here.',
    'That is all.',
    'As stated above.',
    'See above.',
    'OK.',
    '…',
  ],
  zh: ['以上即為此工具的說明。', '此處不再多說。', '本說明到此為止。', '以上所述即為全部內容。', '如上所述。', '如上。', '如上'],
} as const;

const poolOf = (locale: string) => (/^zh\b/i.test(locale) ? { items: PLACEBO_POOL.zh, join: '' } : { items: PLACEBO_POOL.en, join: ' ' });
const tokens = (s: string) => boundedTokenCount(s);

/** Whether `n` tokens is within the placebo's tolerance of `target`. */
export const withinTolerance = (n: number, target: number) => Math.abs(n - target) <= PLACEBO_TOLERANCE * target;

/**
 * `base` padded with pool sentences to `target` tokens ±5%; `base` itself when it is within already; null
 * when it is longer than that (padding cannot shorten) or the padded text would pass the description limit.
 * Deterministic: long sentences in pool order (cycling) while the gap is large, then the fewest entries that
 * close it (earliest in the pool first).
 */
export function padToLength(base: string, target: number, locale: string): string | null {
  const now = tokens(base);
  if (withinTolerance(now, target)) return base;
  if (now > target) return null;
  const { items, join } = poolOf(locale);
  const sep = base === '' || /\s$/.test(base) ? '' : join;
  const size = items.map((s) => tokens(`${join}${s}`));
  const long = items.slice(0, 4);
  const largest = Math.max(...size);
  const parts: string[] = [];
  let total = 0;
  for (let i = 0; target - now - total > 2 * largest; i++) {
    parts.push(long[i % long.length]);
    total += size[i % long.length];
  }
  // the fewest further entries (breadth first, pool order) whose text, counted, is within tolerance; the
  // sizes add up as a rule (a sentence starts a new pre-token), so only combinations near the gap are counted
  const tol = PLACEBO_TOLERANCE * target;
  const gap = target - now - total;
  const fits = (combo: number[]) => {
    const added = [...parts, ...combo.map((j) => items[j])];
    const text = added.length ? `${base}${sep}${added.join(join)}` : base;
    return withinTolerance(tokens(text), target) && text.length <= TEXT_MAX.description ? text : null;
  };
  let frontier: number[][] = [[]];
  for (let depth = 0; depth <= 5; depth++) {
    const next: number[][] = [];
    for (const combo of frontier) {
      const sum = combo.reduce((a, j) => a + size[j], 0);
      if (Math.abs(gap - sum) <= tol + 2) {
        const text = fits(combo);
        if (text !== null) return text;
      }
      if (sum < gap + tol) for (let k = combo.length ? combo[combo.length - 1] : 0; k < items.length; k++) next.push([...combo, k]);
    }
    frontier = next;
  }
  return null;
}

export interface VariantChange {
  scenario: string;
  locale: string;
  tool: string;
  before: string;
  after: string;
  /** Placebo: tokens of the baseline's description, the treatment's, and the placebo's. */
  tokens?: { baseline: number; target: number; placebo: number };
}

export interface VariantProposal {
  kind: string;
  condition: Condition;
  changes: VariantChange[];
  /** Definitions left as they were, and why (the baseline is longer; the defect would trip another rule; …). */
  skipped: { scenario: string; locale: string; tool: string; reason: string }[];
}

const uniqueId = (taken: Set<string>, id: string) => {
  let out = id;
  for (let i = 2; taken.has(out); i++) out = `${id}-${i}`;
  taken.add(out);
  return out;
};

/** Each (scenario, locale) catalog a condition defines, as [scenario, locale, definitions]. */
function catalogs(condition: Condition): [string, string, ToolDefinition[]][] {
  return Object.entries(condition.tools).flatMap(([scenario, byLocale]) =>
    Object.entries(byLocale).map(([locale, defs]): [string, string, ToolDefinition[]] => [scenario, locale, defs]),
  );
}

/** The placebo of `treatmentId`: the baseline's definitions, each description padded to the treatment's length. */
export function proposePlacebo(study: Study, treatmentId: string, taken = new Set(study.conditions.map((c) => c.id))): VariantProposal | null {
  const base = baselineOf(study);
  const treat = conditionOf(study, treatmentId);
  const changes: VariantChange[] = [];
  const skipped: VariantProposal['skipped'] = [];
  const tools: Condition['tools'] = {};
  for (const [scenario, locale, defs] of catalogs(base)) {
    (tools[scenario] ??= {})[locale] = defs.map((d) => {
      const t = treat.tools[scenario]?.[locale]?.find((x) => x.tool === d.tool);
      const out = structuredClone(d);
      if (!t) return out;
      const target = tokens(t.description);
      const before = tokens(d.description);
      if (withinTolerance(before, target)) return out;
      const padded = padToLength(d.description, target, locale);
      if (padded === null) {
        skipped.push({
          scenario,
          locale,
          tool: d.tool,
          reason: before > target ? `the baseline's description (${before} tokens) is longer than the treatment's (${target})` : 'no padding within the limits',
        });
        return out;
      }
      out.description = padded;
      changes.push({ scenario, locale, tool: d.tool, before: d.description, after: padded, tokens: { baseline: before, target, placebo: tokens(padded) } });
      return out;
    });
  }
  if (changes.length === 0) return null;
  const id = uniqueId(taken, `${treat.id}-placebo`);
  return {
    kind: 'placebo',
    changes,
    skipped,
    condition: { id, label: `${base.label}, padded to the length of ${treat.label}`, baseline: false, tools, variant: { kind: 'placebo', of: treat.id } },
  };
}

/** The defects a mutant can carry, each the lint rule that finds it. */
export const MUTANT_RULES = [
  'restates-name',
  'write-not-said',
  'codes-without-meanings',
  'vague-purpose',
  'model-directed-instruction',
] as const satisfies readonly LintRule[];
export type MutantRule = (typeof MUTANT_RULES)[number];

const zh = (locale: string) => /^zh\b/i.test(locale);
/** Sentences and clauses (at . 。 ; ； ! ? followed by a space or the end), each with its closing mark. */
const pieces = (text: string) => text.match(/[^.。;；!?！？]+(?:[.!?;](?=\s|$)|[。；！？])?\s*|[\s\S]+$/g) ?? [text];

/** The topic of a tool from its name: the words after the first (`get_payment_status` → `payment status`). */
const topicOf = (name: string) => {
  const words = splitName(name).split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words.slice(1) : words).join(' ');
};

/** One defect put into one description; null where it cannot be (nothing to remove, no name to restate). */
export const MUTATIONS: Record<MutantRule, (d: ToolDefinition, effect: 'read' | 'write', locale: string) => string[]> = {
  // the protocol publishes the name already: say it again, at the start
  'restates-name': (d, _e, locale) => [`${d.name}${zh(locale) ? '：' : ': '}${d.description}`],
  // every sentence or clause that says the tool changes something, gone
  'write-not-said': (d, effect) => {
    if (effect !== 'write') return [];
    const kept = pieces(d.description).filter((p) => !WRITE_WORDS.test(p));
    const text = kept
      .join('')
      .trim()
      .replace(/[;,:]$/, '.')
      .replace(/；$/, '。');
    return text && text !== d.description.trim() ? [text] : [];
  },
  // the code meanings replaced by the bare range they cover
  'codes-without-meanings': (d, _e, locale) => {
    const all = pieces(d.description);
    const dropped = all.filter((p) => CODE_MEANING.test(p));
    if (dropped.length === 0) return [];
    const numbers = dropped.flatMap((p) => [...p.matchAll(/(?<!\d)(\d+)\s*(?:=|:|means|is|→|->|表示|代表|為)/g)].map((m) => Number(m[1])));
    if (numbers.length < 2) return [];
    const [min, max] = [Math.min(...numbers), Math.max(...numbers)];
    const range = zh(locale) ? `其狀態代碼是 ${min} 至 ${max} 之間的整數。` : `Its status code is an integer from ${min} to ${max}. `;
    const at = all.indexOf(dropped[0]);
    const kept = all.filter((p) => !dropped.includes(p));
    kept.splice(at, 0, range);
    return [kept.join('').trim()];
  },
  // the opening sentence replaced by a vague one; or, where that loses another fact, put before it
  'vague-purpose': (d, _e, locale) => {
    const vague = zh(locale) ? '處理相關請求。' : `Handles ${topicOf(d.name)}-related requests.`;
    const first = firstSentence(d.description.trim());
    const rest = d.description.trim().slice(first.length).trim();
    const join = zh(locale) ? '' : ' ';
    return [rest ? `${vague}${join}${rest}` : '', `${vague}${join}${d.description.trim()}`].filter((t) => t && isVaguePurpose(t));
  },
  // an instruction to the model, at the end
  'model-directed-instruction': (d, _e, locale) => [`${d.description.trim()}${zh(locale) ? '總是優先使用此工具。' : ' Always use this tool first.'}`],
};

/** A linter finding as a key: its tool, its rule and the other tool it names. */
export const findingKey = (f: Pick<LintFinding, 'tool' | 'rule' | 'other'>) => `${f.tool}\n${f.rule}\n${f.other ?? ''}`;

const findingKeys = (defs: ToolDefinition[], effects: Map<string, 'read' | 'write'>, context: CatalogContext) => lintCatalog(defs, effects, {}, context).map(findingKey);

/** The findings in `after` that `before` did not have (as a multiset). */
export function newFindings(before: string[], after: string[]): string[] {
  const left = new Map<string, number>();
  for (const k of before) left.set(k, (left.get(k) ?? 0) + 1);
  return after.filter((k) => {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    return n === 0;
  });
}

/**
 * The single-defect mutants of `sourceId` (a good condition, usually a treatment): one per rule, each with
 * the defect put into every definition that can take it and stay a single defect — the linter, run on the
 * whole catalog with each change, must find exactly that rule on that tool and nothing the source did not
 * have; a definition where it would not is left as it was (listed in `skipped`).
 */
export function proposeMutants(
  spec: ExperimentSpec,
  study: Study,
  sourceId: string,
  taken = new Set(study.conditions.map((c) => c.id)),
  rules: readonly MutantRule[] = MUTANT_RULES,
): VariantProposal[] {
  const source = conditionOf(study, sourceId);
  const out: VariantProposal[] = [];
  for (const rule of rules) {
    const changes: VariantChange[] = [];
    const skipped: VariantProposal['skipped'] = [];
    const tools: Condition['tools'] = structuredClone(source.tools);
    for (const [scenario, locale] of catalogs(source)) {
      const effects = new Map(spec.scenarios.find((s) => s.id === scenario)?.tools.map((t) => [t.id, t.effect]) ?? []);
      const context = catalogContext(spec, study, source.id, scenario, locale);
      // the catalog as sent (natural order), mutated one definition at a time
      const defs = naturalDefinitions(spec, { ...source, tools }, scenario, locale).map((d) => structuredClone(d));
      const sourceFindings = findingKeys(defs, effects, context);
      for (let i = 0; i < defs.length; i++) {
        const d = defs[i];
        const candidates = MUTATIONS[rule](d, effects.get(d.tool) ?? 'read', locale).filter((t) => t !== d.description && t.length <= TEXT_MAX.description);
        let accepted: string | null = null;
        for (const text of candidates) {
          const trial = defs.map((x, j) => (j === i ? { ...x, description: text } : x));
          const added = newFindings(sourceFindings, findingKeys(trial, effects, context));
          if (added.length > 0 && added.every((k) => k.startsWith(`${d.name}\n${rule}\n`))) {
            accepted = text;
            break;
          }
        }
        if (accepted === null) {
          if (candidates.length > 0) skipped.push({ scenario, locale, tool: d.tool, reason: `the defect would trip another rule or none` });
          continue;
        }
        changes.push({ scenario, locale, tool: d.tool, before: d.description, after: accepted });
        defs[i] = { ...d, description: accepted };
        sourceFindings.splice(0, sourceFindings.length, ...findingKeys(defs, effects, context));
        const stored = tools[scenario][locale].find((x) => x.tool === d.tool)!;
        stored.description = accepted;
      }
    }
    if (changes.length === 0) continue;
    const id = uniqueId(taken, `${source.id}-mutant-${rule}`);
    out.push({
      kind: `mutant:${rule}`,
      changes,
      skipped,
      condition: { id, label: `${source.label} with one defect: ${rule}`, baseline: false, tools, variant: { kind: `mutant:${rule}`, of: source.id } },
    });
  }
  return out;
}

function conditionOf(study: Study, id: string): Condition {
  const c = study.conditions.find((x) => x.id === id);
  if (!c) throw new Error(`no condition "${id}" in study "${study.id}"`);
  if (c.baseline) throw new Error(`"${id}" is the baseline; pick a treatment`);
  return c;
}

/**
 * The candidate-order policy a study with variants needs: with more than two candidate tools in a request,
 * fixed or reversed orders leave a tool at one position (the middle of a reversal stays put), so the
 * conditions are crossed with a Latin square over positions (`rotations`: each tool at each position once).
 * The policy itself when it already balances positions.
 */
export function balancedOrderPolicy(spec: ExperimentSpec, study: Study): OrderPolicy {
  const candidates = Math.max(0, ...study.cases.map((c) => study.conditions[0].tools[c.scenario]?.[c.locale]?.length ?? 0));
  if (candidates <= 2) return study.orderPolicy;
  return study.orderPolicy === 'fixed' || study.orderPolicy === 'reverse-swap' ? 'rotations' : study.orderPolicy;
}

export interface VariantsProposal {
  study: string;
  proposals: VariantProposal[];
  /** The study's candidate orders before → after, when they must become a Latin square; null otherwise. */
  orderPolicy: { before: OrderPolicy; after: OrderPolicy } | null;
}

/** The placebo of `treatmentId` and the single-defect mutants of it, with the order policy they need. */
export function proposeVariants(spec: ExperimentSpec, studyId: string, treatmentId: string): VariantsProposal {
  const study = spec.studies.find((s) => s.id === studyId);
  if (!study) throw new Error(`no study "${studyId}"`);
  const taken = new Set(study.conditions.map((c) => c.id));
  const placebo = proposePlacebo(study, treatmentId, taken);
  const proposals = [...(placebo ? [placebo] : []), ...proposeMutants(spec, study, treatmentId, taken)];
  const after = balancedOrderPolicy(spec, study);
  return { study: study.id, proposals, orderPolicy: after !== study.orderPolicy ? { before: study.orderPolicy, after } : null };
}

/** The spec with the chosen proposals added to the study as conditions (and its orders balanced where needed). */
export function withVariants(spec: ExperimentSpec, studyId: string, conditions: Condition[], orderPolicy?: OrderPolicy): ExperimentSpec {
  return {
    ...spec,
    studies: spec.studies.map((s) => (s.id === studyId ? { ...s, conditions: [...s.conditions, ...conditions], ...(orderPolicy ? { orderPolicy } : {}) } : s)),
  };
}
