import type { GateResult, LogEntry } from '../../fixture/backend';
import type { FixtureState } from '../../schema/fixture';
import { diffState, type FieldDiff } from '../../fixture/verify';
import type { StoredTurn } from '../types';
import type { TaskDetails } from './index';

// What the trial page shows of a task trial (framework-free: the component only renders it): the
// transcript turn by turn, per call the four gates with their evidence, the state before and after and the
// diff between them.

export interface CallView {
  id: string;
  name: string;
  arguments: Record<string, unknown> | null;
  rawArguments?: string;
  /** What the model received back. */
  result: unknown;
  gates: { valid: GateResult; invoked: GateResult; authorized: GateResult; verified: GateResult };
  wrote: boolean;
  injected: boolean;
}

export interface TurnView {
  n: number;
  attemptN: number;
  text: string | null;
  calls: CallView[];
}

export interface TaskTrialView {
  turns: TurnView[];
  /** Present once the trial is scored. */
  fixtureRef: string | null;
  principal: TaskDetails['principal'] | null;
  before: FixtureState | null;
  after: FixtureState | null;
  diff: FieldDiff[];
}

const UNTESTED: GateResult = { status: 'untested', evidence: { rule: 'no fixture evidence stored for this call' } };

/**
 * The page model of a task trial from its stored turns and details. `verified` is the trial's state check
 * (the final state against the card), shown on every call that wrote; a call that wrote nothing has nothing to verify.
 */
export function taskTrialView(turns: readonly StoredTurn[], details: unknown): TaskTrialView {
  const d = (details ?? null) as TaskDetails | null;
  const v = d?.verified ?? null;
  const views = turns.map((t): TurnView => {
    const log = (Array.isArray(t.evidence) ? t.evidence : []) as LogEntry[];
    return {
      n: t.n,
      attemptN: t.attemptN,
      text: t.observation.text,
      calls: t.calls.map((c, i) => {
        const e = log[i];
        const wrote = !!e?.write;
        const verified: GateResult = !e
          ? UNTESTED
          : !wrote
            ? { status: 'untested', evidence: { rule: 'the call changed no state: nothing to verify' } }
            : v
              ? {
                  status: v.status,
                  evidence: { rule: 'the final state against the card; nothing else may change (verified gate)', problems: v.problems, write: e.write },
                }
              : d
                ? { status: 'untested', evidence: { rule: 'the card states no expected state', write: e.write } }
                : { status: 'untested', evidence: { rule: 'not scored yet: verified once the conversation has ended', write: e.write } };
        return {
          id: c.id,
          name: c.name,
          arguments: c.arguments,
          rawArguments: c.rawArguments,
          result: t.results[i]?.result ?? null,
          gates: { valid: e?.gates.valid ?? UNTESTED, invoked: e?.gates.invoked ?? UNTESTED, authorized: e?.gates.authorized ?? UNTESTED, verified },
          wrote,
          injected: !!e?.injected,
        };
      }),
    };
  });
  const before = (d?.before ?? null) as FixtureState | null;
  const after = (d?.after ?? null) as FixtureState | null;
  return { turns: views, fixtureRef: d?.fixtureRef ?? null, principal: d?.principal ?? null, before, after, diff: before && after ? diffState(before, after) : [] };
}
