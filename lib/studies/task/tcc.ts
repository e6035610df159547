import type { GateResult, LogEntry } from '../../fixture/backend';
import type { Observation } from '../../schema/observation';
import { TccObservations, type EvidenceGateItem, type TccCheck } from '../../schema/tcc';
import { observationToTcc, type ScoringTool } from '../../scoring/observe';
import type { z } from 'zod';
import type { KindTcc, TrialForTcc } from '../types';
import type { TaskDetails } from './details';
import { TASK_FIELDS, taskChecks, taskObserved } from './score';

// A task trial as TCC v0.1: mode "fixture", fixture_ref = SHA-256 of the initial state and handlers, the
// card's checks with the task defaults, an observation file whose fixture fields come from the fixture log
// and states (so `tclab compare` gives the trial's verdicts), and one evidence-gate item per call and gate.

const STATUS: Record<GateResult['status'], 'verified' | 'contradicted' | 'unknown'> = { pass: 'verified', fail: 'contradicted', untested: 'unknown' };

export function taskTccChecks(checks: readonly TccCheck[]): TccCheck[] {
  return taskChecks(checks);
}

export function taskTccObservations(
  checks: readonly TccCheck[],
  observation: Observation | null,
  tools: readonly ScoringTool[],
  details: TaskDetails | null,
  handlers: Parameters<typeof taskObserved>[0]['handlers'],
): TccObservations {
  const all = taskChecks(checks);
  const fixture = details ? taskObserved({ log: details.log, handlers, before: details.before as never, after: details.after as never }) : null;
  const out = Object.create(null) as TccObservations;
  for (const check of all) {
    const keys = Object.keys(check.expected).filter((k) => check.expected[k] !== undefined);
    const mine = keys.filter((k) => TASK_FIELDS.includes(k));
    const rest = keys.filter((k) => !mine.includes(k));
    if (!observation || !fixture) {
      out[check.id] = null;
      continue;
    }
    const base =
      rest.length > 0 ? observationToTcc([{ ...check, expected: Object.fromEntries(rest.map((k) => [k, check.expected[k]])) }], observation, tools)[check.id] : {};
    out[check.id] = base === null ? null : { ...base, ...Object.fromEntries(mine.map((k) => [k, fixture[k]])) };
  }
  return out;
}

/** Evidence per gate: one item per call and gate, its status verified / contradicted / unknown. */
export function taskEvidenceGate(trialId: string, log: readonly LogEntry[], verified: GateResult['status'] | null): z.infer<typeof EvidenceGateItem>[] {
  return log.flatMap((e) =>
    (['valid', 'invoked', 'authorized', 'verified'] as const).map((g) => {
      const gate: GateResult =
        g === 'verified'
          ? { status: e.write ? (verified ?? 'untested') : 'untested', evidence: { rule: e.write ? 'the final state against the card' : 'the call changed no state' } }
          : e.gates[g];
      return {
        claim: `call ${e.seq} (${e.name}) is ${g}`,
        evidence_ref: `trial:${trialId}/fixture.log[${e.seq - 1}]/gates.${g}`,
        status: STATUS[gate.status],
        evidence: gate.evidence,
      };
    }),
  );
}

/** The task kind's TCC part (KindModule.tcc): a trial scored on its fixture; null when no details were stored. */
export function taskTcc(t: TrialForTcc): KindTcc | null {
  if (!t.details) return null;
  const details = t.details as TaskDetails;
  return {
    checks: taskTccChecks(t.checks),
    evidenceGate: taskEvidenceGate(t.id, details.log, details.verified?.status ?? null),
    fixtureRef: details.fixtureRef,
    mode: 'fixture',
    observations: TccObservations.parse(taskTccObservations(t.checks, t.observation, t.tools, details, t.scenario?.fixture?.handlers ?? {})),
  };
}
