import type { Condition, ExperimentSpec, Study, ToolDefinition } from '../schema/experiment';
import { baselineOf } from '../schema/experiment';
import { TEXT_MAX } from '../schema/common';
import { MODEL_DIRECTED, UNCHECKABLE, catalogContext, firstSentence, isVaguePurpose, lintCatalog, normalName, words, type CatalogContext, type LintRule } from './lint';
import { nameTokens } from './lint-text';
import { naturalDefinitions } from './matrix';
import { splitName } from './retriever';
import { factSentences, unsaidFacts } from './tool-facts';
import { findingKey, newFindings, type VariantChange, type VariantProposal } from './variants';

// Rule-driven rewrites (docs/optimise.md "Candidates"): for a linter finding, the deterministic fix of the
// description (or of a parameter's description) that removes exactly that finding. They are the inverse of
// the single-defect mutants (variants.ts) and checked the same way: the linter, run on the whole catalog
// with each fix, must no longer report that rule on that tool and must report nothing the source did not
// have; a definition where a fix would not is left as it was, with the reason. A fix adds no fact the
// definitions or the scenario's record do not hold (a fact the scenario records, tool-facts.ts, is one it
// holds): where the fix needs one (what each code means, a name that is not a distractor's,
// words that tell two tools apart), there is none, and the finding is listed as needing its author.

/** The rules a deterministic fix exists for, in the order candidates are proposed. */
export const FIXABLE_RULES = [
  'false-tool-name',
  'restates-name',
  'write-not-said',
  'fact-not-said',
  'model-directed-instruction',
  'uncheckable-claim',
  'vague-purpose',
  'too-short',
  'no-task-verb',
  'parameter-undescribed',
] as const satisfies readonly LintRule[];
export type FixableRule = (typeof FIXABLE_RULES)[number];

/** Rules no rule can fix: they need a fact only the author has. */
export const NEEDS_AUTHOR: Partial<Record<LintRule, string>> = {
  'codes-without-meanings': 'what each code means is not in the definitions',
  'name-near-distractor': 'a name is not a description: renaming a tool changes what callers send',
  'duplicate-description': 'what tells the two tools apart is not in the definitions',
  'overlapping-descriptions': 'what tells the two tools apart is not in the definitions',
};

const zh = (locale: string) => /^zh\b/i.test(locale);
/** Sentences and clauses (at . 。 ; ； ! ? followed by a space or the end), each with its closing mark. */
const pieces = (text: string) => text.match(/[^.。;；!?！？]+(?:[.!?;](?=\s|$)|[。；！？])?\s*|[\s\S]+$/g) ?? [text];
const tidy = (s: string) =>
  s
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A tool name as words a model reads, with no separator (so no linter rule takes it for a name). */
const asWords = (name: string) => `the ${splitName(name)} tool`;

interface FixInput {
  def: ToolDefinition;
  effect: 'read' | 'write';
  locale: string;
  /** Every name sent in the catalog. */
  names: ReadonlySet<string>;
  context: CatalogContext;
}

/** A fixed definition: the description and/or parameter descriptions changed. */
type Fix = (input: FixInput) => ToolDefinition[];

const withDescription = (d: ToolDefinition, description: string): ToolDefinition => ({ ...d, description });

/** One fix per rule: candidate definitions, tried in order; the first that passes the linter's check is kept. */
export const FIXES: Record<FixableRule, Fix> = {
  // a dotted or dashed alias of a name sent: the sentence that says it goes; or the alias becomes words
  'false-tool-name': ({ def, names }) => {
    const aliases = nameTokens(def.description).filter((t) => !names.has(t) && [...names].some((n) => normalName(n) === normalName(t)));
    if (aliases.length === 0) return [];
    const kept = pieces(def.description).filter((p) => !aliases.some((a) => p.includes(a)));
    let replaced = def.description;
    for (const a of aliases) replaced = replaced.split(a).join(asWords(a));
    return [tidy(kept.join('')), tidy(replaced)].filter(Boolean).map((t) => withDescription(def, t));
  },
  // the name the protocol already publishes: a leading "name:" goes, the own name becomes "this tool" (another
  // tool's name is a cross-reference the linter leaves alone)
  'restates-name': ({ def, locale }) => {
    let text = def.description.replace(new RegExp(`^\\s*${escape(def.name)}\\s*[:：]\\s*`), '');
    if (nameTokens(text).includes(def.name)) text = text.split(def.name).join(zh(locale) ? '此工具' : 'this tool');
    text = tidy(text.replace(/^this tool/, 'This tool'));
    return text ? [withDescription(def, text)] : [];
  },
  // a write that is not said: one sentence that says it
  'write-not-said': ({ def, effect, locale }) => {
    if (effect !== 'write') return [];
    const add = zh(locale) ? '此工具會寫入並變更資料，不是唯讀查詢。' : 'It writes: calling it changes stored data, it is not a read-only lookup.';
    return [withDescription(def, `${def.description.trim()}${zh(locale) ? '' : ' '}${add}`)];
  },
  // a fact the scenario records (whose session, the cache, what protects a write), said in one sentence each
  'fact-not-said': ({ def, locale, context }) => {
    const unsaid = unsaidFacts(def.description, context.facts?.get(def.tool));
    if (unsaid.length === 0) return [];
    const said = (terse: boolean) => `${def.description.trim()}${zh(locale) ? '' : ' '}${factSentences(unsaid, locale, terse)}`;
    return [withDescription(def, said(false)), withDescription(def, said(true))];
  },
  // the sentences that instruct the model, gone
  'model-directed-instruction': ({ def }) => {
    const kept = pieces(def.description).filter((p) => !MODEL_DIRECTED.some((re) => re.test(p)));
    const text = tidy(kept.join(''));
    return text ? [withDescription(def, text)] : [];
  },
  // the claims nobody can check, gone (every one of them)
  'uncheckable-claim': ({ def }) => {
    const all = new RegExp(UNCHECKABLE.source, 'gi');
    const text = tidy(
      def.description
        .replace(all, '')
        .replace(/\b([Aa])n\s+(?=[^aeiouAEIOU\s])/g, '$1 ')
        .replace(/\b([Aa])\s+(?=[aeiouAEIOU])/g, '$1n ')
        .replace(/^\s*,\s*/, ''),
    );
    return text ? [withDescription(def, text.charAt(0).toUpperCase() + text.slice(1))] : [];
  },
  // a vague opening sentence, gone where the rest says what the tool does
  'vague-purpose': ({ def }) => {
    const first = firstSentence(def.description.trim());
    const rest = def.description.trim().slice(first.length).trim();
    return rest && !isVaguePurpose(rest) ? [withDescription(def, rest)] : [];
  },
  // too short: the parameters it takes, named (a fact the definition holds)
  'too-short': ({ def, locale }) => {
    const params = Object.keys((def.parameters.properties ?? {}) as Record<string, unknown>).map(splitName);
    const add = zh(locale)
      ? params.length
        ? `參數：${params.join('、')}。`
        : '此工具不需要任何參數。'
      : params.length
        ? `It takes ${params.length === 1 ? 'one parameter' : `${params.length} parameters`}: ${params.join(', ')}.`
        : 'It takes no parameters at all.';
    return [withDescription(def, `${def.description.trim()}${zh(locale) ? '' : ' '}${add}`)];
  },
  // no verb of the tasks that need it: the verbs, said
  'no-task-verb': ({ def, context }) => {
    const verbs = context.taskVerbs?.get(def.tool) ?? [];
    if (verbs.length === 0) return [];
    const roots = [...new Set(verbs.map((v) => v.root))].slice(0, 3);
    return [withDescription(def, `${def.description.trim()} Use it to ${roots.join(', ')}.`)];
  },
  // a parameter without a description: its words and its type (facts its schema holds)
  'parameter-undescribed': ({ def }) => {
    const properties = (def.parameters.properties ?? {}) as Record<string, Record<string, unknown>>;
    const next: Record<string, Record<string, unknown>> = {};
    let changed = false;
    for (const [param, schema] of Object.entries(properties)) {
      const desc = typeof schema?.description === 'string' ? schema.description.trim().replace(/[.。]$/, '') : '';
      if (desc && normalName(desc) !== normalName(param) && words(desc) >= 2) {
        next[param] = schema;
        continue;
      }
      const type = typeof schema?.type === 'string' ? schema.type : 'value';
      const choices = Array.isArray(schema?.enum) ? ` One of: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}.` : '';
      next[param] = { ...schema, description: `The ${splitName(param)} (a ${type}).${choices}` };
      changed = true;
    }
    return changed ? [{ ...def, parameters: { ...def.parameters, properties: next } }] : [];
  },
};

export interface RuleFixProposal extends VariantProposal {
  rule: FixableRule;
}

export interface RuleFixes {
  study: string;
  source: string;
  proposals: RuleFixProposal[];
  /** Findings no rule fixes (they need the author), by rule, with why. */
  needsAuthor: { rule: LintRule; tool: string; reason: string }[];
}

/**
 * The rule-driven candidates of a study: for each rule the source condition (the baseline by default) breaks,
 * one condition with that finding fixed wherever a fix removes exactly it. Named `rule:<lint rule>`.
 */
export function proposeRuleFixes(spec: ExperimentSpec, studyId: string, sourceId?: string, taken?: Set<string>): RuleFixes {
  const study = spec.studies.find((s) => s.id === studyId);
  if (!study) throw new Error(`study: no study "${studyId}" in the experiment`);
  const source = sourceId ? study.conditions.find((c) => c.id === sourceId) : baselineOf(study);
  if (!source) throw new Error(`condition: no condition "${sourceId}" in study "${studyId}"`);
  const ids = taken ?? new Set(study.conditions.map((c) => c.id));
  const proposals: RuleFixProposal[] = [];
  const needsAuthor: RuleFixes['needsAuthor'] = [];
  const seen = new Set<string>();
  for (const [scenario, locale, defs] of catalogsOf(spec, study, source)) {
    const effects = effectsOf(spec, scenario);
    const context = catalogContext(spec, study, source.id, scenario, locale);
    for (const f of lintCatalog(defs, effects, {}, context)) {
      const why = NEEDS_AUTHOR[f.rule];
      const key = `${f.rule}\n${f.tool}`;
      if (why && !seen.has(key)) {
        seen.add(key);
        needsAuthor.push({ rule: f.rule, tool: f.tool, reason: why });
      }
    }
  }
  for (const rule of FIXABLE_RULES) {
    const p = fixRule(spec, study, source, rule, ids);
    if (p) proposals.push(p);
  }
  return { study: study.id, source: source.id, proposals, needsAuthor };
}

function effectsOf(spec: ExperimentSpec, scenario: string) {
  return new Map(spec.scenarios.find((s) => s.id === scenario)?.tools.map((t) => [t.id, t.effect]) ?? []);
}

/** Each catalog the condition sends, in its natural order: [scenario, locale, definitions]. */
function catalogsOf(spec: ExperimentSpec, study: Study, condition: Condition): [string, string, ToolDefinition[]][] {
  return Object.entries(condition.tools).flatMap(([scenario, byLocale]) =>
    Object.keys(byLocale).map((locale): [string, string, ToolDefinition[]] => [
      scenario,
      locale,
      naturalDefinitions(spec, condition, scenario, locale).map((d) => structuredClone(d)),
    ]),
  );
}

/** The source condition with every fixable `rule` finding fixed; null when there is none to fix. */
export function fixRule(spec: ExperimentSpec, study: Study, source: Condition, rule: FixableRule, taken: Set<string>): RuleFixProposal | null {
  const tools: Condition['tools'] = structuredClone(source.tools);
  const changes: VariantChange[] = [];
  const skipped: VariantProposal['skipped'] = [];
  for (const [scenario, locale, defs] of catalogsOf(spec, study, source)) {
    const effects = effectsOf(spec, scenario);
    const context = catalogContext(spec, study, source.id, scenario, locale);
    const names = new Set(defs.map((d) => d.name));
    let before = lintCatalog(defs, effects, {}, context);
    for (let i = 0; i < defs.length; i++) {
      const d = defs[i];
      if (!before.some((f) => f.tool === d.name && f.rule === rule)) continue;
      const beforeKeys = before.map(findingKey);
      const candidates = FIXES[rule]({ def: d, effect: effects.get(d.tool) ?? 'read', locale, names, context }).filter(
        (c) => c.description.length <= TEXT_MAX.description && JSON.stringify(c) !== JSON.stringify(d),
      );
      let accepted: { def: ToolDefinition; findings: ReturnType<typeof lintCatalog> } | null = null;
      for (const c of candidates) {
        const trial = defs.map((x, j) => (j === i ? c : x));
        const after = lintCatalog(trial, effects, {}, context);
        const gone = !after.some((f) => f.tool === d.name && f.rule === rule);
        if (gone && newFindings(beforeKeys, after.map(findingKey)).length === 0) {
          accepted = { def: c, findings: after };
          break;
        }
      }
      if (!accepted) {
        skipped.push({
          scenario,
          locale,
          tool: d.tool,
          reason: candidates.length ? 'the fix would leave the finding or add another' : 'no fix without a fact the definitions do not hold',
        });
        continue;
      }
      defs[i] = accepted.def;
      before = accepted.findings;
      const stored = tools[scenario][locale].findIndex((x) => x.tool === d.tool);
      tools[scenario][locale][stored] = accepted.def;
      const paramBefore = JSON.stringify(d.parameters);
      const paramAfter = JSON.stringify(accepted.def.parameters);
      changes.push({
        scenario,
        locale,
        tool: d.tool,
        before: paramBefore === paramAfter ? d.description : `${d.description}\n${paramBefore}`,
        after: paramBefore === paramAfter ? accepted.def.description : `${accepted.def.description}\n${paramAfter}`,
      });
    }
  }
  if (changes.length === 0) return null;
  let id = `${source.id}-fix-${rule}`;
  for (let n = 2; taken.has(id); n++) id = `${source.id}-fix-${rule}-${n}`;
  taken.add(id);
  return {
    kind: `rule:${rule}`,
    rule,
    changes,
    skipped,
    condition: { id, label: `${source.label}, fixed: ${rule}`, baseline: false, tools, variant: { kind: `rule:${rule}`, of: source.id } },
  };
}
