import type { z } from 'zod';
import type { StudyKind } from '../schema/study-kind';

/** Reports one problem at a zod-style path (relative to the spec root). */
export type IssueFn = (path: (string | number)[], message: string) => void;

/** What a case looks like to a kind's validation: only the fields every kind shares plus the kind's own. */
export interface CaseForValidation {
  id: string;
  scenario: string;
  locale: string;
  [field: string]: unknown;
}

/** A scenario as a kind's validation sees it. */
export interface ScenarioForValidation {
  id: string;
  tools: { id: string; effect: 'read' | 'write' }[];
  [field: string]: unknown;
}

/**
 * The spec part of a study kind: the fields it adds (their shapes are in lib/schema/kind-fields.ts, which the
 * experiment schema spreads in) and their semantic checks, which the spec's semantic validation
 * (lib/design/spec-semantics.ts) calls.
 */
export interface KindSpec {
  kind: StudyKind;
  /** Fields this kind adds to a case (optional in the zod shape; `validateCase` says which it requires). */
  caseFields: z.ZodRawShape;
  /**
   * Its studies may add a distractor catalog (docs/discovery.md): a kind whose trial is one request and one
   * answer. A conversation's later turns would need the discovery repeated per turn.
   */
  catalog?: boolean;
  /** Fields this kind adds to a scenario (optional in the zod shape). */
  scenarioFields?: z.ZodRawShape;
  /** Semantic checks of one scenario (every scenario of the spec, whichever kinds use it). */
  validateScenario?(s: ScenarioForValidation, path: (string | number)[], issue: IssueFn): void;
  /** Semantic checks of one case of a study of this kind; `path` is the case's path in the spec. */
  validateCase(c: CaseForValidation, path: (string | number)[], issue: IssueFn, scenario: ScenarioForValidation | undefined): void;
}
