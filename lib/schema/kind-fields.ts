import { z } from 'zod';
import { Id, JsonObject, LIST_MAX, list, strict } from './common';
import { Fault, FixtureSpec, Principal } from './fixture';
import type { StudyKind } from './study-kind';

// The fields each study kind adds to the base shape of a case and of a scenario (experiment.ts spreads them
// in, each optional there). Their shapes live here, on the ground floor, because the whole shape of a spec
// is needed where only lib/schema may be imported (lib/db reads stored specs, the run export embeds them);
// what a kind requires of them and how it checks them is the kind's module (lib/studies/<kind>/spec.ts,
// `validateCase` / `validateScenario`). A kind without an entry here fails to compile.

/** The fields each kind adds to a case (strict like the base fields). */
export const KIND_CASE_FIELDS = {
  /** selection: the model sees the candidate tools and decides; no fields of its own. */
  selection: {},
  /** interpretation: the lookup call, fixed, and the tool result injected after it. */
  interpretation: {
    fixedCall: strict({ tool: Id, arguments: JsonObject }).optional(),
    toolResult: z.unknown().optional(),
  },
  /** task: who acts (principal and permissions), the injected faults, and how many model turns at most. */
  task: {
    principal: Principal.optional(),
    faults: list(Fault, LIST_MAX.checks).optional(),
    maxTurns: z.number().int().min(1).max(20).optional(),
  },
} satisfies Record<StudyKind, z.ZodRawShape>;

/** The fields each kind adds to a scenario (task: its back-end, declared once per scenario). */
export const KIND_SCENARIO_FIELDS = {
  selection: {},
  interpretation: {},
  task: { fixture: FixtureSpec.optional() },
} satisfies Record<StudyKind, z.ZodRawShape>;

/** Whether a case of a study of this kind has the field (false for a kind this build does not know): the designer shows the kind's own fields by it. */
export function kindHasCaseField(kind: string, field: string): boolean {
  return Object.hasOwn(KIND_CASE_FIELDS, kind) && Object.hasOwn(KIND_CASE_FIELDS[kind as StudyKind], field);
}

/** Every kind's case fields, merged into the one case shape (each optional there; the kind's validation requires). */
export const kindCaseFields = { ...KIND_CASE_FIELDS.interpretation, ...KIND_CASE_FIELDS.task };

/** Every kind's scenario fields (task: the fixture back-end). */
export const kindScenarioFields = { ...KIND_SCENARIO_FIELDS.task };
