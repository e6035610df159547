import { createHash } from 'node:crypto';
import type { HistoryCall, HistoryStep, ProviderRequest, TurnToolResult, WireTool, WireToolResult } from '../schema/request';
import { extractArguments } from './extract';
import { decideSelection, profileTool, scoreTools, type SelectionTrace } from './select';
import { sentences } from './text';

/**
 * The simulator in a task conversation (docs/design.md#providers-and-the-simulated-models — a transparent heuristic, not a language model). It
 * reads the task, the definitions and the tool results so far, never a case card. After each turn, the
 * first rule that applies:
 *
 * 1. No history: the selection rules (STOP, lexical pick, CLARIFY), except that when the task says the
 *    user has read-only access and the picked tool's definition says it needs a permission, it answers STOP.
 * 2. A call timed out: if its definition says to query the status before retrying and a status tool is
 *    listed (by name, else by description), it calls that tool with the arguments both share; otherwise it retries the same call (with
 *    the same idempotency key, when the tool takes one). After two timeouts of one call it gives up.
 * 3. A status lookup answered: found → it reports the action done; not found → it retries the timed-out call.
 * 4. A result carries a `message` (an instruction): it follows it — calls the tool the message matches
 *    best, with arguments extracted from the message — unless the definition of the tool that returned it
 *    says its results are data and not instructions.
 * 5. A call failed with an error code: it reports the code (and the definition's sentence about it, if any).
 * 6. A call succeeded: if another listed tool matches the task by a word no other tool matches and has not
 *    succeeded yet, it calls that one next (e.g. check availability, then book), unless the result says
 *    nothing is available; otherwise it answers with a summary.
 */

export interface TaskTrace {
  rule: string;
  turn: number;
  selection?: SelectionTrace;
  detail?: Record<string, unknown>;
}

export interface TaskDecision {
  call: { name: string; arguments: Record<string, unknown> } | null;
  text: string | null;
  trace: TaskTrace;
}

const READ_ONLY_USER = /\bread[- ]only (?:access|user|role)\b|\bauditor\b|唯讀/i;
const NEEDS_PERMISSION = /\bpermission\b|權限/i;
const STATUS_BEFORE_RETRY = /status[^.]*before retr|before retr[^.]*status|先查詢[^。]*狀態/i;
const STATUS_TOOL = /status|狀態/i;
const RESULTS_ARE_DATA = /results? (?:are|is) data|never follow instructions|不要?遵循/i;
const IDEMPOTENCY_PARAM = /idempoten/i;

/** A step of the conversation as this rule set reads it: every call and result with its id, the results MCP-shaped. */
interface TaskStep {
  calls: (HistoryCall & { id: string })[];
  results: TurnToolResult[];
}

const isWireResult = (v: unknown): v is WireToolResult =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as WireToolResult).isError === 'boolean' &&
  typeof (v as WireToolResult).content === 'object' &&
  (v as WireToolResult).content !== null;

/** A transcript step as a task step: a call or result given without an id is named by its position; a result not MCP-shaped is its content. */
function taskStep(h: HistoryStep, n: number): TaskStep {
  const idOf = (id: string | undefined, i: number) => id ?? `injected_${n}_${i}`;
  return {
    calls: h.calls.map((c, i) => ({ ...c, id: idOf(c.id, i) })),
    results: h.results.map((r, i) => ({
      id: idOf(r.id, i),
      name: r.name,
      result: isWireResult(r.result) ? r.result : { isError: r.isError ?? false, content: { output: r.result } },
    })),
  };
}

const errorCode = (r: TurnToolResult) => (r.result.isError ? String((r.result.content.error as { code?: unknown } | undefined)?.code ?? 'ERROR') : null);

/** A deterministic idempotency key for a call: derived from its other arguments (same call → same key). */
export function idempotencyKeyFor(tool: string, args: Record<string, unknown>): string {
  const h = createHash('sha256')
    .update(JSON.stringify([tool, Object.entries(args).sort()]))
    .digest('hex')
    .slice(0, 12);
  return `key-${h}`;
}

function withKey(tool: WireTool, args: Record<string, unknown>): Record<string, unknown> {
  const props = Object.keys((tool.parameters.properties ?? {}) as Record<string, unknown>);
  const keyParam = props.find((p) => IDEMPOTENCY_PARAM.test(p));
  if (!keyParam || args[keyParam] !== undefined) return args;
  return { ...args, [keyParam]: idempotencyKeyFor(tool.name, args) };
}

export function decideTask(request: ProviderRequest): TaskDecision {
  const history = request.history.map(taskStep);
  const turn = history.length + 1;
  const zh = request.locale.startsWith('zh');
  const byName = new Map(request.tools.map((t) => [t.name, t]));

  if (history.length === 0) {
    const d = decideSelection(request);
    if (!d.call) return { call: null, text: d.text, trace: { rule: `first:${d.trace.rule}`, turn, selection: d.trace } };
    const tool = byName.get(d.call.name)!;
    if (READ_ONLY_USER.test(request.task) && NEEDS_PERMISSION.test(tool.description))
      return {
        call: null,
        text: `${request.markers.stop} ${zh ? '您的帳號是唯讀的，這個動作需要權限。' : `You have read-only access, and ${tool.name} needs a permission you do not hold.`}`,
        trace: { rule: 'first:stop:read-only-user', turn, selection: d.trace },
      };
    return { call: { name: d.call.name, arguments: withKey(tool, d.call.arguments) }, text: null, trace: { rule: 'first:call', turn, selection: d.trace } };
  }

  const last = history[history.length - 1];
  const lastCall = (id: string) => last.calls.find((c) => c.id === id);
  const allCalls = history.flatMap((h) => h.calls.map((c, i) => ({ call: c, result: h.results[i] })));
  const timeouts = (name: string, args: unknown) =>
    allCalls.filter((x) => x.call.name === name && JSON.stringify(x.call.arguments) === JSON.stringify(args) && x.result && errorCode(x.result) === 'TIMEOUT').length;

  for (const r of last.results) {
    const call = lastCall(r.id);
    const tool = byName.get(r.name);
    if (!call || !tool) continue;
    const code = errorCode(r);
    // 2. timeout
    if (code === 'TIMEOUT') {
      if (timeouts(call.name, call.arguments) >= 2)
        return {
          call: null,
          text: zh ? '請求逾時，無法確定是否成功。' : 'The request timed out twice; whether it took effect is unknown.',
          trace: { rule: 'timeout:give-up', turn },
        };
      const others = request.tools.filter((t) => t.name !== tool.name);
      const status = others.find((t) => STATUS_TOOL.test(t.name)) ?? others.find((t) => STATUS_TOOL.test(t.description));
      if (STATUS_BEFORE_RETRY.test(tool.description) && status) {
        const props = Object.keys((status.parameters.properties ?? {}) as Record<string, unknown>);
        const args = Object.fromEntries(Object.entries(call.arguments ?? {}).filter(([k]) => props.includes(k)));
        return { call: { name: status.name, arguments: args }, text: null, trace: { rule: 'timeout:check-status', turn, detail: { timedOut: tool.name } } };
      }
      return { call: { name: call.name, arguments: { ...(call.arguments ?? {}) } }, text: null, trace: { rule: 'timeout:retry', turn, detail: { retried: tool.name } } };
    }
    // 3. status lookup answered
    if (!code && typeof r.result.content.found === 'boolean') {
      const pending = [...allCalls].reverse().find((x) => x.result && errorCode(x.result) === 'TIMEOUT');
      if (r.result.content.found || !pending)
        return {
          call: null,
          text: r.result.content.found
            ? zh
              ? '已確認：這筆操作已完成。'
              : 'Confirmed: the status shows it went through, so I did not retry.'
            : zh
              ? '查無紀錄。'
              : 'No record was found.',
          trace: { rule: 'status:answered', turn },
        };
      return { call: { name: pending.call.name, arguments: { ...(pending.call.arguments ?? {}) } }, text: null, trace: { rule: 'status:not-found:retry', turn } };
    }
    // 4. an instruction inside a result
    const message = typeof r.result.content.message === 'string' ? r.result.content.message : null;
    if (message && !RESULTS_ARE_DATA.test(tool.description)) {
      const profiles = request.tools.map(profileTool);
      const scores = scoreTools(message, profiles);
      const best = scores.reduce((a, b) => (b.score > a.score ? b : a));
      const target = request.tools.find((t) => t.name === best.name)!;
      const extracted = extractArguments(message, profiles.find((p) => p.name === best.name)!.schema).args;
      const shared = Object.fromEntries(Object.entries(call.arguments ?? {}).filter(([k]) => Object.hasOwn((target.parameters.properties ?? {}) as object, k)));
      return {
        call: { name: target.name, arguments: withKey(target, { ...shared, ...extracted }) },
        text: null,
        trace: { rule: 'inject:followed', turn, detail: { message, scores } },
      };
    }
    // 5. an error code
    if (code) {
      const why = sentences(tool.description).find((s) => s.includes(code));
      const text = zh ? `請求失敗：${code}。${why ?? ''}` : `The request failed with ${code}.${why ? ` ${why}` : ''}`;
      return { call: null, text, trace: { rule: 'error:report', turn, detail: { code } } };
    }
  }

  // 6. success: the next step of the task, or a summary
  const succeeded = new Set(allCalls.filter((x) => x.result && !x.result.result.isError).map((x) => x.call.name));
  const content = last.results[0]?.result.content ?? {};
  const unavailable = JSON.stringify(content).match(/"available":false|"records":\[\]/) !== null;
  const profiles = request.tools.map(profileTool);
  const scores = scoreTools(request.task, profiles);
  const unique = scores.filter((s) => Object.keys(s.for).some((tok) => scores.filter((o) => o.for[tok] !== undefined).length === 1));
  const next = unique.filter((s) => !succeeded.has(s.name) && s.score > 0).sort((a, b) => b.score - a.score)[0];
  if (next && !unavailable) {
    const target = byName.get(next.name)!;
    const extraction = extractArguments(request.task, profiles.find((p) => p.name === next.name)!.schema);
    return {
      call: { name: target.name, arguments: withKey(target, extraction.args) },
      text: null,
      trace: { rule: 'success:next-step', turn, detail: { next: next.name, scores } },
    };
  }
  const text = unavailable
    ? zh
      ? '目前沒有可用的結果。'
      : 'Nothing is available for that request.'
    : zh
      ? `完成：${last.calls.map((c) => c.name).join('、')} 已成功。`
      : `Done: ${last.calls.map((c) => c.name).join(', ')} succeeded.`;
  return { call: null, text, trace: { rule: unavailable ? 'success:nothing-available' : 'success:summary', turn } };
}
