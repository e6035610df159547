import type { Markers } from '../schema/experiment';
import type { ProviderRequest, WireTool } from '../schema/request';
import { extractArguments, inventValue, readSchema, type SchemaInfo } from './extract';
import { ACTIONS, ASK_CUE, MISSING_CUE, type Action } from './lexicon';
import { mentions, scopes, sentences, splitIdentifier, tokenize } from './text';
import { preferGeneric, type GenericPreference } from './generic';
import { crowd, type Crowding } from './crowding';

/**
 * Selection, in the order the rules apply (each one reads only the request: task, tool definitions, order):
 *
 * 1. STOP — the task names an action (ACTIONS: void, cancel, refund, change, …) that some definition
 *    mentions only inside a negation ("It cannot void, cancel or refund …") and no definition offers
 *    anywhere else. If the definitions say nothing about what the tools cannot do, this rule never fires
 *    and the simulator goes on to pick a tool — as a model with vague definitions does.
 * 2. Pick a tool by lexical similarity: task tokens against each tool's name, description and parameter
 *    descriptions. A token counts for a tool when its definition affirms it and against the tool when the
 *    definition mentions it only in a negation; each token is weighted by its rarity among the candidates
 *    (w = ln((N+1)/(df+0.5))), so words every tool shares barely count. Scores within TIE_MARGIN of the best
 *    are a tie, and a tie goes to the tool listed first: overlapping definitions leave the order to decide.
 * 2b. Crowding — with more than three plausible candidates the pick is replaced, with a probability that grows
 *    with their number, by another plausible one (crowding.ts: documented and seeded by the request).
 * 3. Extract arguments from the task guided by the chosen tool's JSON Schema (extract.ts).
 * 4. CLARIFY — only when a required field could not be extracted AND the definition (tool description, or
 *    that field's description) tells the model to ask when something is missing. Otherwise it calls anyway:
 *    a missing field with a known head noun gets an invented value ("main branch"), any other is omitted.
 *
 * The system instruction is not read: it is the same in every condition, and what is under study is the
 * tool definitions. Only the protocol's marker strings are used, to write the reply.
 */
export const TIE_MARGIN = 0.25;

/**
 * How a simulated model breaks near-ties — the one thing its two models differ in (both label themselves
 * as heuristics, not language models):
 * - `lexical`: scores within TIE_MARGIN of the best tie; the first listed of those wins.
 * - `position-biased`: every plausible tool ties — any tool whose definition affirms some task word (score
 *   > 0), or the best-scoring one when none does — and the first listed of those wins. It prefers whatever
 *   is listed first, so candidate order moves its choice: a stand-in for documented position bias.
 */
export type TieRule = 'lexical' | 'position-biased';

/** The simulated models' selection rules: the two tie rules, and the lexical one followed by generic.ts's preference. */
export type SelectionModel = TieRule | 'generic-preferring';

export interface ToolProfile {
  name: string;
  schema: SchemaInfo;
  /** Tokens the definition affirms (name, description and parameter descriptions outside negations). */
  positive: Set<string>;
  /** Tokens it mentions only inside a negation. */
  negativeOnly: Set<string>;
  /** All tokens inside negations (for the STOP rule). */
  negative: Set<string>;
  positiveText: string;
  negativeText: string;
  /** The description says: when a required field is missing, ask. */
  asksWhenMissing: boolean;
  /** Fields whose own description says so. */
  fieldsThatAsk: string[];
}

const asks = (text: string) => sentences(text).some((s) => ASK_CUE.test(s) && MISSING_CUE.test(s));

export function profileTool(tool: WireTool): ToolProfile {
  const schema = readSchema(tool.parameters);
  const parts = [scopes(tool.description), ...schema.params.map((p) => scopes(p.description))];
  const positiveText = [splitIdentifier(tool.name), ...parts.map((p) => p.positive)].join('\n');
  const negativeText = parts.map((p) => p.negative).join('\n');
  const positive = new Set(tokenize(positiveText));
  const negative = new Set(tokenize(negativeText));
  return {
    name: tool.name,
    schema,
    positive,
    negative,
    negativeOnly: new Set([...negative].filter((t) => !positive.has(t))),
    positiveText,
    negativeText,
    asksWhenMissing: asks(tool.description),
    fieldsThatAsk: schema.params.filter((p) => asks(p.description)).map((p) => p.name),
  };
}

export interface ToolScore {
  name: string;
  score: number;
  /** Task tokens that count for the tool, with their weights. */
  for: Record<string, number>;
  /** Task tokens the definition negates. */
  against: Record<string, number>;
}

export interface SelectionTrace {
  rule: 'stop:unsupported-action' | 'clarify:missing-required' | 'call' | 'stop:no-tools';
  taskTokens: string[];
  scores: ToolScore[];
  /** margin null: the position-biased rule (every plausible tool ties). */
  tie: { margin: number | null; tied: string[]; brokenByOrder: boolean } | null;
  stop: { action: string; deniedBy: string[] } | null;
  /** generic-preferring: the lexical pick, the generic tool offered, the reasons given, the tool called. */
  generic?: GenericPreference;
  /** Present when more than CROWD_FREE tools were plausible: the crowding draw (crowding.ts). */
  crowding?: Crowding;
  extraction: {
    tool: string;
    extracted: Record<string, string | number>;
    how: Record<string, string>;
    missing: string[];
    asksWhenMissing: boolean;
    invented: Record<string, string>;
    omitted: string[];
  } | null;
}

export interface SelectionDecision {
  call: { name: string; arguments: Record<string, string | number> } | null;
  text: string | null;
  trace: SelectionTrace;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function scoreTools(task: string, profiles: ToolProfile[]): ToolScore[] {
  const taskTokens = [...new Set(tokenize(task))];
  const n = profiles.length;
  const weight = (t: string) => {
    const df = profiles.filter((p) => p.positive.has(t) || p.negative.has(t)).length;
    return Math.log((n + 1) / (df + 0.5));
  };
  return profiles.map((p) => {
    const pro = Object.create(null) as Record<string, number>;
    const con = Object.create(null) as Record<string, number>;
    for (const t of taskTokens) {
      if (p.positive.has(t)) pro[t] = round(weight(t));
      else if (p.negativeOnly.has(t)) con[t] = round(weight(t));
    }
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    return { name: p.name, score: round(sum(pro) - sum(con)), for: pro, against: con };
  });
}

/** Rule 1: an action of the task that the definitions deny and nothing offers. */
export function unsupportedAction(task: string, profiles: ToolProfile[]): { action: Action; deniedBy: string[] } | null {
  const taskTokens = new Set(tokenize(task));
  for (const action of ACTIONS) {
    if (!mentions(task, taskTokens, action.en, action.zh)) continue;
    const offered = profiles.some((p) => mentions(p.positiveText, p.positive, action.en, action.zh));
    const deniedBy = profiles.filter((p) => mentions(p.negativeText, p.negative, action.en, action.zh)).map((p) => p.name);
    if (deniedBy.length > 0 && !offered) return { action, deniedBy };
  }
  return null;
}

export function decideSelection(request: ProviderRequest, model: SelectionModel = 'lexical'): SelectionDecision {
  const tieRule: TieRule = model === 'position-biased' ? 'position-biased' : 'lexical';
  const zh = request.locale.startsWith('zh');
  const profiles = request.tools.map(profileTool);
  const trace: SelectionTrace = {
    rule: 'call',
    taskTokens: [...new Set(tokenize(request.task))],
    scores: [],
    tie: null,
    stop: null,
    extraction: null,
  };
  if (profiles.length === 0) {
    trace.rule = 'stop:no-tools';
    return { call: null, text: `${request.markers.stop} ${zh ? '沒有可用的工具。' : 'No tools are available.'}`, trace };
  }

  const unsupported = unsupportedAction(request.task, profiles);
  if (unsupported) {
    trace.rule = 'stop:unsupported-action';
    trace.stop = { action: unsupported.action.id, deniedBy: unsupported.deniedBy };
    return { call: null, text: stopText(request.markers, unsupported.action, zh), trace };
  }

  trace.scores = scoreTools(request.task, profiles);
  const best = Math.max(...trace.scores.map((s) => s.score));
  const plausible = trace.scores.filter((s) => s.score > 0);
  const tied = tieRule === 'position-biased' && plausible.length > 0 ? plausible : trace.scores.filter((s) => s.score >= best - TIE_MARGIN);
  const winner = tied[0]; // candidate order breaks ties: the first listed wins
  trace.tie = { margin: tieRule === 'position-biased' ? null : TIE_MARGIN, tied: tied.map((s) => s.name), brokenByOrder: tied.length > 1 };
  let profile = profiles.find((p) => p.name === winner.name) ?? profiles[0];
  // 2b. crowding: many plausible candidates make the pick noisier (crowding.ts; never with ≤ 3 plausible)
  const crowding = crowd(request.task, trace.scores, profile.name);
  if (crowding.p > 0) trace.crowding = crowding;
  if (crowding.swappedTo) profile = profiles.find((p) => p.name === crowding.swappedTo) ?? profile;
  if (model === 'generic-preferring') {
    trace.generic = preferGeneric(profile, profiles);
    profile = profiles.find((p) => p.name === trace.generic!.chosen) ?? profile;
  }

  const { args, missing, how } = extractArguments(request.task, profile.schema);
  const askable = missing.filter((f) => profile.asksWhenMissing || profile.fieldsThatAsk.includes(f));
  const invented = Object.create(null) as Record<string, string>;
  const omitted: string[] = [];
  if (askable.length === 0) {
    for (const field of missing) {
      const spec = profile.schema.params.find((p) => p.name === field);
      const value = spec ? inventValue(spec, request.locale) : null;
      if (value === null) omitted.push(field);
      else invented[field] = value;
    }
  }
  trace.extraction = { tool: profile.name, extracted: args, how, missing, asksWhenMissing: askable.length > 0, invented, omitted };

  if (askable.length > 0) {
    trace.rule = 'clarify:missing-required';
    return { call: null, text: clarifyText(request.markers, profile.name, askable, zh), trace };
  }
  return { call: { name: profile.name, arguments: { ...args, ...invented } }, text: null, trace };
}

function clarifyText(markers: Markers, tool: string, fields: string[], zh: boolean): string {
  if (zh) return `${markers.clarify} 要使用 ${tool}，還需要您提供：${fields.join('、')}。`;
  return `${markers.clarify} To use ${tool} I still need the ${fields.map((f) => f.replace(/_/g, ' ')).join(' and ')}. Could you tell me?`;
}

function stopText(markers: Markers, action: Action, zh: boolean): string {
  if (zh) return `${markers.stop} 目前提供的工具都無法${action.say.zh}，工具定義已說明這一點。`;
  return `${markers.stop} None of the available tools can ${action.say.en}; their definitions say so.`;
}
