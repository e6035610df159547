import type { ExperimentSpec, Study, ToolDefinition, ToolFact } from '../schema/experiment';
import { checksFor } from '../schema/experiment';
import { catalogsOf } from './matrix';
import { resolveSize, seededCatalog } from './catalog';
import { nameKey, nearDistractor, taskVerbLocale, taskVerbs, usesTaskVerb, type TaskVerb } from './lint-search';
import { similarPairs } from './lint-overlap';
import { clip, codeRange, nameTokens } from './lint-text';
import { FACT_TEXT, unsaidFacts } from './tool-facts';

// The description linter (docs/linter.md). A description is the only field where a tool can make its case to
// a model that is comparing it with the alternatives (seed 001), and the only place its hidden facts can
// reach the model (seed 000: whether it writes, what its codes mean). Each rule flags something a reader
// cannot check or act on. Findings are advice about a condition's definitions — a baseline may break
// them on purpose — never a reason to refuse an experiment.

export type LintRule =
  | 'duplicate-description'
  | 'overlapping-descriptions'
  | 'false-tool-name'
  | 'restates-name'
  | 'write-not-said'
  | 'fact-not-said'
  | 'codes-without-meanings'
  | 'too-short'
  | 'uncheckable-claim'
  | 'parameter-undescribed'
  | 'model-directed-instruction'
  | 'vague-purpose'
  | 'no-task-verb'
  | 'name-near-distractor';

export interface LintFinding {
  rule: LintRule;
  level: 'error' | 'warning';
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  /** The tool's name as sent (and the other tool's, for rules about a pair). */
  tool: string;
  other?: string;
  message: string;
}

export const LINT_RULES: Record<LintRule, { level: LintFinding['level']; what: string }> = {
  'duplicate-description': { level: 'error', what: 'two tools of one catalog have the same description: a model cannot tell them apart' },
  'overlapping-descriptions': { level: 'warning', what: 'two descriptions share most of their words' },
  'false-tool-name': { level: 'error', what: 'the description names a tool that is not sent (e.g. a dotted alias of a published name)' },
  'restates-name': { level: 'warning', what: 'the description restates the tool name, a field the protocol already publishes' },
  'write-not-said': { level: 'warning', what: 'a tool that writes does not say so (its effect never crosses the wire otherwise)' },
  'fact-not-said': {
    level: 'warning',
    what: 'a fact the scenario records about the tool (whose session it acts on, that it caches, what protects a write) is not in its description, the only field that carries it',
  },
  'codes-without-meanings': { level: 'warning', what: 'a range of codes without what each code means' },
  'too-short': { level: 'warning', what: 'too short to say what the tool does, for whom, and with what effect' },
  'uncheckable-claim': { level: 'warning', what: 'a claim nobody can check ("powerful", "seamless", …)' },
  'parameter-undescribed': { level: 'warning', what: 'a parameter without a description beyond its own name' },
  'model-directed-instruction': {
    level: 'error',
    what: 'text that tells the model what to do beyond describing the tool ("ignore previous instructions", "always prefer this tool", "this tool gives you internet access")',
  },
  'vague-purpose': {
    level: 'warning',
    what: 'the first sentence gives only a vague purpose (a verb that says nothing of what happens and a generic object: "Handles …-related requests"): what the tool does is not said',
  },
  'no-task-verb': {
    level: 'warning',
    what: "the description uses no verb of the tasks that need this tool: a retriever or tool search matching the user's words may not find it",
  },
  'name-near-distractor': { level: 'warning', what: "the tool's name has the same words as a distractor's (split at _ . - and camelCase, case-folded)" },
};

// Words that tell a model a tool changes something, in the locales we ship (en, zh-TW) and a few more.
export const WRITE_WORDS =
  /\b(write|writes|writing|mutat\w*|modif\w*|updat\w*|creat\w*|delet\w*|remov\w*|submit\w*|send\w*|pay\w*|cancel\w*|book\w*|reserv\w*|add\w*|chang\w*|insert\w*|post\w*|charg\w*|transfer\w*|commit\w*|irrevers\w*)\b|寫入|修改|更新|建立|新增|刪除|移除|送出|提交|付款|支付|取消|訂位|預訂|變更|扣款|轉帳/i;
export const UNCHECKABLE =
  /\b(powerful|seamless(ly)?|robust|cutting[- ]edge|state[- ]of[- ]the[- ]art|best[- ]in[- ]class|world[- ]class|advanced|smart|intelligent|comprehensive|ultimate|revolutionary|blazing(ly)?[- ]fast)\b/i;
// Instructions to the model rather than facts about the tool: overriding its instructions, ranking this tool
// above all others whatever the task, or claiming capabilities for the model itself. A reasoned comparison
// ("prefer this over a generic browser tool: a repeated search does not hit Amazon again") is a claim the
// caller can check and act on, so only unconditional rankings are flagged.
export const MODEL_DIRECTED: RegExp[] = [
  /\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|other|your|system)\s+(instructions?|prompts?|messages?|rules?|guidelines?)/i,
  /\b(always|only)\s+(use|prefer|call|choose|pick|select)\s+(this|these|me)\b/i,
  /\b(never|do\s+not|don't)\s+(use|call|choose|pick|select)\s+(any\s+)?(other|another|different)\s+tools?\b/i,
  /\b(use|call|prefer)\s+this\s+tool\s+(first|before\s+any|instead\s+of\s+(any|all|every))\b/i,
  /\b(instead\s+of|over)\s+(any|all|every)\s+other\s+tools?\b/i,
  /\b(gives?|grants?)\s+you\s+(full\s+|unrestricted\s+)?(internet|web|network|root|admin|file\s*system)\s+access\b/i,
  /\byou\s+(now\s+)?(have|can\s+access)\s+(full\s+|unrestricted\s+)?(internet|web|network)\s+access\b/i,
  /\byour\s+(system\s+prompt|instructions)\b/i,
  /忽略(之前|先前|以上|所有)的?(指示|指令)|總是(使用|優先使用)此工具|不要使用其他工具/,
];
// A vague purpose: the first sentence opens with a verb that says nothing of what happens and names only a
// generic object (seed 001's "Handles invoice-related requests."; zh-TW 「處理發票相關請求。」).
const VAGUE_VERB =
  /^\s*(?:this\s+tool\s+|a\s+tool\s+that\s+)?(?:handles|manages|processes|supports|deals\s+with|helps\s+with|works\s+with|takes\s+care\s+of|is\s+used\s+for)\b/i;
const VAGUE_OBJECT = /[a-z]-related\b|\b(?:requests?|operations|tasks|things|stuff|matters|functionality|features|needs|everything|anything)\b/i;
const VAGUE_ZH = /^\s*(?:處理|管理|支援|負責)[^。]*?(?:相關|請求|事務|事項)/;
/** The first sentence of a description (up to . 。 ! ? followed by a space or the end). */
export function firstSentence(text: string): string {
  const m = /^[\s\S]*?(?:[.!?](?=\s|$)|[。！？])/.exec(text);
  return m ? m[0] : text;
}
export const isVaguePurpose = (text: string) => {
  const first = firstSentence(text.trim());
  return (VAGUE_VERB.test(first) && VAGUE_OBJECT.test(first)) || VAGUE_ZH.test(first);
};
// (?<!\d): only from the start of a number, so that a long run of digits is not tried from each of them
export const CODE_MEANING = /\b\d+\s*(?:=|:|means|is|→|->)\s*["']?[A-Za-z\u4e00-\u9fff]|(?<!\d)\d+\s*(?:表示|代表|為)/;
// name-like tokens examined per description (a tool's own description names a few tools, not thousands)
const MAX_NAME_TOKENS = 1000;

/** The linter ran past its deadline (`tclab lint --timeout-ms`). */
export class LintTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the linter did not finish within ${timeoutMs} ms (--timeout-ms)`);
    this.name = 'LintTimeoutError';
  }
}

export interface LintOptions {
  /** Stop with a LintTimeoutError once Date.now() passes this. */
  deadline?: { at: number; timeoutMs: number };
}

/** What a catalog is linted against beyond its definitions: the tasks that need each tool, the distractors sent beside them. */
export interface CatalogContext {
  /** Scenario tool id → the verbs of the tasks whose card expects it (English tasks only; lint-search.ts). */
  taskVerbs?: ReadonlyMap<string, readonly TaskVerb[]>;
  /** Distractor names by their word key (`nameKey`): the distractors this catalog may be sent with. */
  distractors?: ReadonlyMap<string, string>;
  /** Scenario tool id → the facts its scenario records (tool-facts.ts). */
  facts?: ReadonlyMap<string, readonly ToolFact[]>;
}

/** The facts a scenario records, by its tool id. */
export function factsOf(spec: ExperimentSpec, scenario: string): Map<string, readonly ToolFact[]> {
  return new Map((spec.scenarios.find((s) => s.id === scenario)?.tools ?? []).flatMap((t) => (t.facts?.length ? [[t.id, t.facts] as const] : [])));
}

/** What one catalog (a study's condition, a scenario, a locale) is linted against beyond its definitions. */
export function catalogContext(spec: ExperimentSpec, study: Study, condition: string, scenario: string, locale: string): CatalogContext {
  return { taskVerbs: taskVerbsByTool(study, condition, scenario, locale), distractors: distractorKeys(study, scenario), facts: factsOf(spec, scenario) };
}

/** A check to call in a loop: throws a LintTimeoutError once the deadline has passed. */
export function deadlineCheck(deadline: LintOptions['deadline']): () => void {
  if (!deadline) return () => {};
  return () => {
    if (Date.now() > deadline.at) throw new LintTimeoutError(deadline.timeoutMs);
  };
}

/** Every finding of every catalog (study × condition × scenario × locale) of the experiment. */
export function lintExperiment(spec: ExperimentSpec, options: LintOptions = {}): LintFinding[] {
  const out: LintFinding[] = [];
  const studies = new Map(spec.studies.map((s) => [s.id, s]));
  const distractors = new Map<string, Map<string, string>>();
  for (const { definitions, effects, ...where } of catalogsOf(spec)) {
    const study = studies.get(where.study)!;
    const key = `${where.study}\n${where.scenario}`;
    if (!distractors.has(key)) distractors.set(key, distractorKeys(study, where.scenario));
    const context: CatalogContext = {
      taskVerbs: taskVerbsByTool(study, where.condition, where.scenario, where.locale),
      distractors: distractors.get(key),
      facts: factsOf(spec, where.scenario),
    };
    out.push(...lintCatalog(definitions, effects, options, context).map((f) => ({ ...where, ...f })));
  }
  return out;
}

/** The verbs of the tasks of a study's cases (this scenario and locale) whose card, for this condition, expects each tool. */
export function taskVerbsByTool(study: Study, condition: string, scenario: string, locale: string): Map<string, TaskVerb[]> {
  const tasks = new Map<string, string[]>();
  if (!taskVerbLocale(locale)) return new Map();
  for (const c of study.cases) {
    if (c.scenario !== scenario || c.locale !== locale) continue;
    for (const check of checksFor(c, condition)) {
      const tool = check.expected.tool;
      if (!tool) continue;
      const list = tasks.get(tool) ?? tasks.set(tool, []).get(tool)!;
      if (!list.includes(c.task)) list.push(c.task);
    }
  }
  return new Map([...tasks].map(([tool, texts]) => [tool, taskVerbs(texts)]));
}

/** The distractors a study may send with a scenario (the largest draw of its catalog), by word key. */
export function distractorKeys(study: Study, scenario: string): Map<string, string> {
  if (!study.catalog) return new Map();
  let n = 0;
  try {
    for (const size of study.catalog.sizes) n = Math.max(n, resolveSize(study, size));
  } catch {
    return new Map(); // a size past the catalog is the spec's own error (catalogCollisions)
  }
  const out = new Map<string, string>();
  for (const t of seededCatalog(study, scenario).slice(0, n)) if (!out.has(nameKey(t.name))) out.set(nameKey(t.name), t.name);
  return out;
}

type CatalogFinding = Omit<LintFinding, 'study' | 'condition' | 'scenario' | 'locale'>;

/**
 * The findings of one catalog: the definitions sent together, with each tool's hidden effect. Time linear in
 * the catalog's size: each description is scanned in linear time, and the pairs alike are found through an
 * index of rare words (lint-overlap.ts), not by comparing every pair.
 */
export function lintCatalog(defs: ToolDefinition[], effects: Map<string, 'read' | 'write'>, options: LintOptions = {}, context: CatalogContext = {}): CatalogFinding[] {
  const tick = deadlineCheck(options.deadline);
  const out: CatalogFinding[] = [];
  const add = (rule: LintRule, tool: string, message: string, other?: string) => out.push({ rule, level: LINT_RULES[rule].level, tool, other, message });
  const names = new Set(defs.map((d) => d.name));
  const byNormalName = new Map<string, ToolDefinition>();
  for (const d of defs) if (!byNormalName.has(normalName(d.name))) byNormalName.set(normalName(d.name), d);
  const similar = similarPairs(
    defs.map((d) => d.description),
    tick,
  );

  defs.forEach((d, i) => {
    tick();
    const text = d.description.trim();
    // a name-like token (with a separator) that is a variant of a tool name sent, but not the name itself
    for (const token of nameTokens(text, MAX_NAME_TOKENS)) {
      // its own name restates a field the protocol publishes; another tool's, sent beside it, is a cross-reference
      if (names.has(token)) {
        if (token === d.name) add('restates-name', d.name, `restates its own name "${token}"`);
        continue;
      }
      const variant = byNormalName.get(normalName(token));
      if (variant) add('false-tool-name', d.name, `says "${token}", but the tool is sent as "${variant.name}"`, variant.name);
    }
    if (effects.get(d.tool) === 'write' && !WRITE_WORDS.test(text))
      add('write-not-said', d.name, 'writes, but its description does not say it changes anything (nor what protects the user)');
    const unsaid = unsaidFacts(text, context.facts?.get(d.tool));
    if (unsaid.length > 0) add('fact-not-said', d.name, `does not say what its scenario records: ${unsaid.map((f) => `${f} (${FACT_TEXT[f].what})`).join('; ')}`);
    const range = codeRange(text);
    if (range && !CODE_MEANING.test(text)) add('codes-without-meanings', d.name, `mentions codes ${range[0]}–${range[1]} without what each one means`);
    const n = words(text);
    if (n < 6) add('too-short', d.name, `${JSON.stringify(clip(text))} is ${n} word${n === 1 ? '' : 's'} long`);
    for (const re of MODEL_DIRECTED) {
      const m = re.exec(text);
      if (m) {
        add('model-directed-instruction', d.name, `"${clip(m[0])}" tells the model what to do instead of describing the tool`);
        break;
      }
    }
    if (isVaguePurpose(text)) add('vague-purpose', d.name, `${JSON.stringify(clip(firstSentence(text), 120))} does not say what the tool does`);
    const verbs = context.taskVerbs?.get(d.tool);
    if (verbs && verbs.length > 0 && !usesTaskVerb(text, verbs))
      add('no-task-verb', d.name, `uses no verb of the tasks that need it (${verbs.map((v) => v.root).join(', ')})`);
    const near = context.distractors ? nearDistractor(d.name, context.distractors) : null;
    if (near) add('name-near-distractor', d.name, `"${d.name}" has the same words as the distractor "${near}"`, near);
    const claim = UNCHECKABLE.exec(text);
    if (claim) add('uncheckable-claim', d.name, `"${claim[0]}" cannot be checked; say what it does instead`);
    for (const [param, schema] of Object.entries((d.parameters.properties ?? {}) as Record<string, { description?: unknown }>)) {
      const desc = typeof schema?.description === 'string' ? schema.description.trim().replace(/[.。]$/, '') : '';
      if (!desc || normalName(desc) === normalName(param) || words(desc) < 2)
        add(
          'parameter-undescribed',
          d.name,
          desc ? `parameter "${clip(param)}" is described only as ${JSON.stringify(clip(desc))}` : `parameter "${clip(param)}" has no description`,
        );
    }
    for (const pair of similar[i]) {
      const other = defs[pair.j].name;
      if (pair.same) add('duplicate-description', d.name, `has the same description as "${other}"`, other);
      else add('overlapping-descriptions', d.name, `shares ${Math.round(pair.share * 100)}% of its words with "${other}"`, other);
    }
  });
  return out;
}

export function normalName(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '_');
}

/** Words, counting each CJK character as one (a zh-TW description has no spaces). */
export function words(s: string): number {
  const cjk = s.match(/[\u3400-\u9fff]/g)?.length ?? 0;
  const latin = s.replace(/[\u3400-\u9fff]/g, ' ').match(/[A-Za-z0-9]+/g)?.length ?? 0;
  return latin + Math.ceil(cjk / 2);
}

/** A finding on a tool file (an MCP tools/list, an OpenAI tools array): one catalog, no study or condition. */
export interface ToolFileFinding {
  tool: string;
  rule: LintRule;
  level: LintFinding['level'];
  message: string;
}

/**
 * Lint tools read from a file or a live server as one catalog. A tool's effect is known from MCP annotations:
 * not `readOnlyHint` → it may write, and `write-not-said` applies; an OpenAI tool has no annotations, so
 * that rule is not applied to it. The facts the annotations state (`idempotentHint`) are never sent to a
 * model, so `fact-not-said` applies to them.
 */
export function lintTools(
  tools: {
    name: string;
    description: string;
    parameters: Record<string, unknown>;
    effect: 'read' | 'write';
    annotated: boolean;
    facts?: readonly ToolFact[];
  }[],
  options: LintOptions = {},
): ToolFileFinding[] {
  const defs: ToolDefinition[] = tools.map((t, i) => ({ tool: `t${i}`, name: t.name, description: t.description, parameters: t.parameters }));
  const effects = new Map<string, 'read' | 'write'>();
  tools.forEach((t, i) => t.annotated && effects.set(`t${i}`, t.effect));
  const facts = new Map(tools.flatMap((t, i) => (t.facts?.length ? [[`t${i}`, t.facts] as const] : [])));
  return lintCatalog(defs, effects, options, { facts }).map((f) => ({
    tool: f.tool,
    rule: f.rule,
    level: f.level,
    message:
      f.rule === 'write-not-said'
        ? 'is not marked readOnlyHint, so it may change something, but its description never says what it changes'
        : f.rule === 'fact-not-said'
          ? `is marked idempotentHint, but its description never says so (${FACT_TEXT.idempotent.what})`
          : f.message,
  }));
}
