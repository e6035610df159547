import type { StudyKind } from '../schema/study-kind';
import type { KindSpec } from './spec-types';
import { selectionSpec } from './selection/spec';
import { interpretationSpec } from './interpretation/spec';
import { taskSpec } from './task/spec';

/** The spec part of every study kind (fields and validation); the full modules are in ./registry.ts. */
export const KIND_SPECS: Record<StudyKind, KindSpec> = {
  selection: selectionSpec,
  interpretation: interpretationSpec,
  task: taskSpec,
};
