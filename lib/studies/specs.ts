import type { StudyKind } from './kinds';
import type { KindSpec } from './spec-types';
import { selectionSpec } from './selection/spec';
import { interpretationCaseFields, interpretationSpec } from './interpretation/spec';
import { taskCaseFields, taskScenarioFields, taskSpec } from './task/spec';

/** The spec part of every study kind (fields and validation); the full modules are in ./registry.ts. */
export const KIND_SPECS: Record<StudyKind, KindSpec> = {
  selection: selectionSpec,
  interpretation: interpretationSpec,
  task: taskSpec,
};

/** Every kind's case fields, merged into the one case shape (each optional there; the kind's validation requires). */
export const kindCaseFields = { ...interpretationCaseFields, ...taskCaseFields };

/** Every kind's scenario fields (task: the fixture back-end). */
export const kindScenarioFields = { ...taskScenarioFields };
