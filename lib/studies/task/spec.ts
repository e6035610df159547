import type { Fault, FixtureSpec } from '../../schema/fixture';
import { KIND_CASE_FIELDS, KIND_SCENARIO_FIELDS } from '../../schema/kind-fields';
import type { KindSpec } from '../spec-types';

export const DEFAULT_MAX_TURNS = 6;

const WRITES = new Set(['create', 'update', 'delete']);

export const taskSpec: KindSpec = {
  kind: 'task',
  /** Who acts (principal and permissions), the injected faults, how many model turns at most (shapes: lib/schema/kind-fields.ts). */
  caseFields: KIND_CASE_FIELDS.task,
  /** A scenario's back-end, declared once per scenario: initial state and a handler per tool. */
  scenarioFields: KIND_SCENARIO_FIELDS.task,
  validateCase(c, path, issue, scenario) {
    const fixture = scenario?.fixture as FixtureSpec | undefined;
    if (scenario && !fixture) issue([...path, 'scenario'], `a task case needs a fixture back-end: scenario "${scenario.id}" declares none`);
    if (!c.principal) issue([...path, 'principal'], 'a task case needs the principal (who acts, with which permissions)');
    ((c.faults as Fault[] | undefined) ?? []).forEach((f, i) => {
      if (fixture && !Object.hasOwn(fixture.handlers, f.tool))
        issue([...path, 'faults', i, 'tool'], `no handler for tool "${f.tool}" in the fixture of scenario "${scenario?.id}"`);
    });
  },
  validateScenario(s, path, issue) {
    const fixture = s.fixture as FixtureSpec | undefined;
    if (!fixture) return;
    for (const [toolId, h] of Object.entries(fixture.handlers)) {
      const p = [...path, 'fixture', 'handlers', toolId];
      const tool = s.tools.find((t) => t.id === toolId);
      if (!tool) issue(p, `"${toolId}" is not a tool of scenario "${s.id}"`);
      else if (WRITES.has(h.op) !== (tool.effect === 'write'))
        issue([...p, 'op'], `operation "${h.op}" ${WRITES.has(h.op) ? 'writes' : 'only reads'}, but tool "${toolId}" is declared effect "${tool.effect}"`);
      h.preconditions.forEach((pc, i) => {
        if (pc.collection !== undefined && !Object.hasOwn(fixture.state, pc.collection) && !Object.values(fixture.handlers).some((x) => x.collection === pc.collection))
          issue([...p, 'preconditions', i, 'collection'], `no collection "${pc.collection}" in the fixture`);
      });
    }
  },
};
