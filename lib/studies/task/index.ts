import { FixtureBackend } from '../../fixture/backend';
import { verifyState, type ExpectedState } from '../../fixture/verify';
import { fixtureRef as fixtureRefOf } from '../../fixture';
import { checksFor } from '../../schema/experiment';
import type { KindModule } from '../types';
import { DEFAULT_MAX_TURNS, taskSpec } from './spec';
import { conversationObservation, scoreTask } from './score';
import type { TaskDetails } from './details';
import { taskTcc } from './tcc';

export { taskChecks, scoreTask, claimsSuccess } from './score';
export type { TaskDetails } from './details';

export const task: KindModule = {
  spec: taskSpec,
  turns: 'conversation',
  summary: "a conversation whose proposed calls run against the scenario's fixture back-end; scored on the final state",
  extendRequest() {},
  caseDetails: (kase) => ({ principal: kase.principal, faults: kase.faults ?? [], maxTurns: kase.maxTurns ?? DEFAULT_MAX_TURNS }),
  tcc: taskTcc,
  start({ spec, study, kase, condition, tools }) {
    const scenario = spec.scenarios.find((s) => s.id === kase.scenario);
    const fixture = scenario?.fixture;
    if (!fixture) throw new Error(`case "${kase.id}": scenario "${kase.scenario}" has no fixture back-end`);
    const principal = kase.principal ?? { id: 'anonymous', permissions: [] };
    const backend = new FixtureBackend(fixture, principal, kase.faults ?? []);
    const before = backend.snapshot();
    return {
      maxTurns: kase.maxTurns ?? DEFAULT_MAX_TURNS,
      apply(calls) {
        const from = backend.log.length;
        const results = calls.map((c) => {
          const tool = tools.find((t) => t.name === c.name) ?? null;
          const result = backend.call({ tool: tool?.id ?? null, name: c.name, arguments: c.arguments, parameters: tool?.parameters ?? { type: 'object' } });
          return { id: c.id, name: c.name, result };
        });
        return { results, evidence: backend.log.slice(from) };
      },
      score(turns) {
        const last = turns[turns.length - 1];
        const s = scoreTask({
          checks: checksFor(kase, condition),
          observations: turns.map((t) => t.observation),
          log: backend.log,
          handlers: fixture.handlers,
          before,
          after: backend.snapshot(),
          tools,
          markers: study.protocol.markers,
          labels: study.protocol.labels,
          task: kase.task,
          attemptN: last?.attemptN ?? 0,
        });
        const after = backend.snapshot();
        const states = checksFor(kase, condition).flatMap((c) => (c.expected.state ? [c.expected.state as ExpectedState] : []));
        const problems = states.flatMap((e) => verifyState(before, after, e).problems);
        const verified = states.length === 0 ? null : { status: problems.length === 0 ? ('pass' as const) : ('fail' as const), problems };
        const details: TaskDetails = { fixtureRef: fixtureRefOf(fixture), principal, before, after, log: backend.log, verified };
        return { ...s, observation: conversationObservation(turns.map((t) => t.observation)), details };
      },
    };
  },
};
