import type { Clustered, OrderConsistency, PassCount, RunSummary, StudySummary } from '../schema/table1';
import { FailureCategory } from '../schema/verdict';
import { wilson } from '../stats/wilson';

/**
 * CI gates (`tclab run … --gate EXPR`): a comparison of arithmetic over named figures of Table 1, e.g.
 * `selection.treatment.unwanted_write == 0`, `selection.regressed <= 0`,
 * `interpretation.treatment.pass_rate >= 0.95`, `selection.difference.ci_low > 0`. Parsed by a small
 * recursive-descent parser (numbers, names, + − × ÷, parentheses, one comparison); nothing is evaluated
 * as code.
 */

export class GateSyntaxError extends Error {}

/** A gate naming something that does not exist; `known` is what can be named. */
export class GateNameError extends Error {
  constructor(
    readonly gate: string,
    readonly unknown: string[],
    readonly known: string[],
  ) {
    super(`gate "${gate}" names nothing: ${unknown.join(', ')}. Names: ${known.join(', ')}`);
  }
}

type Node = { t: 'num'; v: number } | { t: 'name'; v: string } | { t: 'neg'; a: Node } | { t: 'bin'; op: '+' | '-' | '*' | '/'; a: Node; b: Node };
const COMPARISONS = ['==', '!=', '<=', '>=', '<', '>'] as const;
type Comparison = (typeof COMPARISONS)[number];

export interface Gate {
  text: string;
  left: Node;
  op: Comparison;
  right: Node;
}

type Token = { k: 'num'; v: number } | { k: 'name'; v: string } | { k: 'op'; v: string };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const num = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?%?/.exec(text.slice(i));
    if (num) {
      const s = num[0];
      out.push({ k: 'num', v: s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s) });
      i += s.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_.\-]*[A-Za-z0-9_]|^[A-Za-z_]/.exec(text.slice(i));
    if (name) {
      out.push({ k: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (['==', '!=', '<=', '>='].includes(two)) {
      out.push({ k: 'op', v: two });
      i += 2;
      continue;
    }
    if ('<>+-*/()'.includes(c)) {
      out.push({ k: 'op', v: c });
      i++;
      continue;
    }
    if (c === '=') throw new GateSyntaxError(`gate "${text}": use == to compare (at ${i + 1})`);
    throw new GateSyntaxError(`gate "${text}": unexpected "${c}" at ${i + 1}`);
  }
  return out;
}

/** Parse one gate expression: `<arithmetic> <comparison> <arithmetic>`. */
export function parseGate(text: string): Gate {
  const toks = tokenize(text);
  let p = 0;
  const peek = () => toks[p];
  const isOp = (v: string) => peek()?.k === 'op' && peek()!.v === v;
  const fail = (what: string): never => {
    throw new GateSyntaxError(`gate "${text}": ${what}`);
  };
  function factor(): Node {
    const t = peek();
    if (!t) return fail('expected a number or a name at the end');
    if (t.k === 'num') return (p++, { t: 'num', v: t.v });
    if (t.k === 'name') return (p++, { t: 'name', v: t.v });
    if (t.v === '-') return (p++, { t: 'neg', a: factor() });
    if (t.v === '(') {
      p++;
      const e = sum();
      if (!isOp(')')) fail('missing )');
      p++;
      return e;
    }
    return fail(`unexpected "${t.v}"`);
  }
  function term(): Node {
    let a = factor();
    while (isOp('*') || isOp('/')) {
      const op = toks[p++].v as '*' | '/';
      a = { t: 'bin', op, a, b: factor() };
    }
    return a;
  }
  function sum(): Node {
    let a = term();
    while (isOp('+') || isOp('-')) {
      const op = toks[p++].v as '+' | '-';
      a = { t: 'bin', op, a, b: term() };
    }
    return a;
  }
  if (toks.length === 0) fail('empty');
  const left = sum();
  const op = peek();
  if (!op || op.k !== 'op' || !(COMPARISONS as readonly string[]).includes(op.v)) fail(`expected one of ${COMPARISONS.join(' ')} after the left side`);
  p++;
  const right = sum();
  if (p < toks.length) fail(`unexpected "${String(toks[p].v)}" after the right side`);
  return { text, left, op: op!.v as Comparison, right };
}

function namesIn(n: Node, into: string[] = []): string[] {
  if (n.t === 'name') into.push(n.v);
  else if (n.t === 'neg') namesIn(n.a, into);
  else if (n.t === 'bin') {
    namesIn(n.a, into);
    namesIn(n.b, into);
  }
  return into;
}

/** Every name a gate may use, with its value in this summary (null: not defined here, e.g. no pairs). */
export function gateValues(summary: RunSummary): Map<string, number | null> {
  const m = new Map<string, number | null>();
  const put = (k: string, v: number | null | undefined) => {
    if (!m.has(k)) m.set(k, v ?? null);
  };
  for (const s of summary.studies) {
    const sides: [string, PassCount, Clustered | undefined, OrderConsistency | null | undefined][] = [
      ['baseline', s.total.baseline, s.clustered?.baseline, s.orderConsistency?.baseline],
      ['treatment', s.total.treatment, s.clustered?.treatment, s.orderConsistency?.treatment],
    ];
    for (const [role, c, cl, oc] of sides) {
      const condition = role === 'baseline' ? s.baseline : s.treatment;
      for (const prefix of [`${s.study}.${role}`, `${s.study}.${condition}`]) putCondition(put, prefix, c, cl, oc, s, role as 'baseline' | 'treatment');
    }
    for (const k of ['improved', 'same', 'regressed', 'incomplete'] as const) put(`${s.study}.${k}`, s.pairs[k]);
    put(`${s.study}.pairs`, s.pairs.improved + s.pairs.same + s.pairs.regressed);
    const d = s.difference;
    put(`${s.study}.difference.estimate`, d?.estimate);
    put(`${s.study}.difference.se`, d?.se);
    put(`${s.study}.difference.ci_low`, d?.ci95?.[0]);
    put(`${s.study}.difference.ci_high`, d?.ci95?.[1]);
    put(`${s.study}.difference.clusters`, d?.clusters);
    put(`${s.study}.mcnemar.p_exact`, s.mcnemar?.pExact ?? s.mcnemarP);
    put(`${s.study}.mcnemar.p_mid`, s.mcnemar?.pMid);
  }
  return m;
}

function putCondition(
  put: (k: string, v: number | null | undefined) => void,
  prefix: string,
  c: PassCount,
  cl: Clustered | undefined,
  oc: OrderConsistency | null | undefined,
  s: StudySummary,
  role: 'baseline' | 'treatment',
): void {
  const w = wilson(c.pass, c.n);
  put(`${prefix}.pass`, c.pass);
  put(`${prefix}.failed`, c.n - c.pass);
  put(`${prefix}.n`, c.n);
  put(`${prefix}.unresolved`, c.unresolved);
  put(`${prefix}.untested`, c.untested);
  put(`${prefix}.pass_rate`, w?.estimate);
  put(`${prefix}.fail_rate`, w ? 1 - w.estimate : null);
  put(`${prefix}.ci_low`, w?.low);
  put(`${prefix}.ci_high`, w?.high);
  put(`${prefix}.clustered_se`, cl?.se);
  put(`${prefix}.clustered_ci_low`, cl?.ci95?.[0]);
  put(`${prefix}.clustered_ci_high`, cl?.ci95?.[1]);
  put(`${prefix}.design_effect`, cl?.designEffect);
  put(`${prefix}.flip_rate`, oc?.flipRate);
  put(`${prefix}.first_position_rate`, oc?.firstPositionRate);
  for (const cat of FailureCategory.options) put(`${prefix}.${cat}`, s.categories[cat]?.[role] ?? 0);
}

export interface GateResult {
  gate: string;
  ok: boolean;
  /** `name = value` for every name the gate uses. */
  values: Record<string, number | null>;
  /** Why it failed, when it did. */
  reason?: string;
}

function evaluate(n: Node, values: Map<string, number | null>): number | null {
  switch (n.t) {
    case 'num':
      return n.v;
    case 'name':
      return values.get(n.v) ?? null;
    case 'neg': {
      const a = evaluate(n.a, values);
      return a === null ? null : -a;
    }
    case 'bin': {
      const a = evaluate(n.a, values);
      const b = evaluate(n.b, values);
      if (a === null || b === null) return null;
      const r = n.op === '+' ? a + b : n.op === '-' ? a - b : n.op === '*' ? a * b : a / b;
      return Number.isFinite(r) ? r : null;
    }
  }
}

const EPS = 1e-12;
function compare(a: number, op: Comparison, b: number): boolean {
  switch (op) {
    case '==':
      return Math.abs(a - b) <= EPS;
    case '!=':
      return Math.abs(a - b) > EPS;
    case '<=':
      return a <= b + EPS;
    case '>=':
      return a + EPS >= b;
    case '<':
      return a < b - EPS;
    case '>':
      return a > b + EPS;
  }
}

/** Throws GateNameError when a gate names something the summary cannot give. */
export function checkGateNames(gates: readonly Gate[], known: ReadonlyMap<string, unknown>): void {
  for (const g of gates) {
    const unknown = [...namesIn(g.left), ...namesIn(g.right)].filter((n) => !known.has(n));
    if (unknown.length) throw new GateNameError(g.text, [...new Set(unknown)], [...known.keys()]);
  }
}

/** Evaluate gates against a summary. A figure without a value (e.g. no complete pair) fails its gate. */
export function evaluateGates(gates: readonly Gate[], summary: RunSummary): GateResult[] {
  const values = gateValues(summary);
  checkGateNames(gates, values);
  return gates.map((g) => {
    const used = Object.fromEntries([...new Set([...namesIn(g.left), ...namesIn(g.right)])].map((n) => [n, values.get(n) ?? null]));
    const a = evaluate(g.left, values);
    const b = evaluate(g.right, values);
    if (a === null || b === null) {
      const missing = Object.entries(used)
        .filter(([, v]) => v === null)
        .map(([k]) => k);
      return { gate: g.text, ok: false, values: used, reason: `no value for ${missing.join(', ') || 'the expression'} in this run` };
    }
    const ok = compare(a, g.op, b);
    return ok ? { gate: g.text, ok, values: used } : { gate: g.text, ok, values: used, reason: `${fmt(a)} ${g.op} ${fmt(b)} is false` };
  });
}

function fmt(x: number): string {
  return Number.isInteger(x) ? String(x) : x.toPrecision(4);
}

/** One line per gate for the terminal: `gate passed: …` / `gate FAILED: … (…)`. */
export function formatGateResults(results: readonly GateResult[]): string {
  return results
    .map((r) => {
      const vals = Object.entries(r.values)
        .map(([k, v]) => `${k} = ${v === null ? '—' : fmt(v)}`)
        .join(', ');
      return r.ok ? `gate passed: ${r.gate} (${vals})` : `gate FAILED: ${r.gate} — ${r.reason}${vals ? ` (${vals})` : ''}`;
    })
    .join('\n');
}
