import { z } from 'zod';
import { JsonObject, LIST_MAX, TEXT_MAX, dict, list, text } from './common';

/**
 * TCC v0.1 — the public case-card format of seed 000 (Task–Call Contract). Imported and exported
 * unchanged: unknown keys are kept (`loose`) so a card round-trips byte-for-byte in meaning. Known text
 * fields have the limits and character rules of every text field (lib/schema/common.ts).
 */
export const Decision = z.enum(['read', 'write', 'clarify', 'stop']);
export type Decision = z.infer<typeof Decision>;

/** The fields of `expected` this tool knows (a card may carry others; an experiment spec may not). */
export const TCC_EXPECTED_SHAPE = {
  decision: Decision.optional(),
  /** Extension: the scenario tool id the first call must name (docs/design.md#scoring-rules "first tool call's name"). */
  tool: text(TEXT_MAX.short).optional(),
  call_count: z.number().int().min(0).max(1000).optional(),
  /** The complete call: each key maps to a value, or (for non-array parameters) a list of acceptable values. */
  arguments: JsonObject.optional(),
  label: text(TEXT_MAX.short).optional(),
  write_count: z.number().int().min(0).max(1_000_000).optional(),
  /**
   * task: the records that must exist after the task with these fields (collection → record id → fields),
   * or must not (null); anything else that changed is collateral damage.
   */
  state: dict(text(TEXT_MAX.short, 1), dict(text(TEXT_MAX.short, 1), JsonObject.nullable(), 10_000), LIST_MAX.keys).optional(),
  /** task: writes applied twice for one intended action (default 0). */
  duplicate_writes: z.number().int().min(0).max(1_000_000).optional(),
  /** task: calls the fixture refused for want of permission (default 0). */
  unauthorized_calls: z.number().int().min(0).max(1_000_000).optional(),
};

/**
 * The names of the check fields, in the shape's order: the bare list lib/scoring/fields/ registers one
 * module for each (lib/scoring/fields/index.ts is typed against it, and its test checks it at run time).
 */
export type ExpectedField = keyof typeof TCC_EXPECTED_SHAPE;
export const EXPECTED_FIELDS = Object.keys(TCC_EXPECTED_SHAPE) as ExpectedField[];

export const TccExpected = z.object(TCC_EXPECTED_SHAPE).loose();
export type TccExpected = z.infer<typeof TccExpected>;

export const TccAxis = z.enum(['task_fit', 'call_result']);
export type TccAxis = z.infer<typeof TccAxis>;

export const TCC_CHECK_SHAPE = {
  id: text(TEXT_MAX.short, 1),
  axis: TccAxis,
  condition: text(TEXT_MAX.long).default(''),
};

export const TccCheck = z.object({ ...TCC_CHECK_SHAPE, expected: TccExpected }).loose();
export type TccCheck = z.infer<typeof TccCheck>;

export const EVIDENCE_GATE_SHAPE = {
  claim: text(TEXT_MAX.long),
  evidence_ref: text(TEXT_MAX.long).nullable(),
  status: z.enum(['verified', 'unknown', 'contradicted']),
};
export const EvidenceGateItem = z.object(EVIDENCE_GATE_SHAPE).loose();

const ContextText = text(TEXT_MAX.long).nullable().optional();

export const TccCard = z
  .object({
    tcc_version: z.literal('0.1'),
    case_id: text(TEXT_MAX.short, 1),
    locale: text(TEXT_MAX.short, 1),
    task: text(TEXT_MAX.long),
    context: z.object({ client: ContextText, model: ContextText, tool_set_ref: ContextText, fixture_ref: ContextText, mode: ContextText }).loose(),
    evidence_gate: list(EvidenceGateItem, LIST_MAX.evidence).default([]),
    checks: list(TccCheck, LIST_MAX.checks, 1),
  })
  .loose();
export type TccCard = z.infer<typeof TccCard>;

/** What was observed for one check; same field names as `expected`. */
export const TccObservedEntry = z
  .object({
    decision: text(TEXT_MAX.short).optional(),
    tool: text(TEXT_MAX.short).optional(),
    call_count: z.number().int().min(0).optional(),
    arguments: JsonObject.nullable().optional(),
    label: text(TEXT_MAX.short).nullable().optional(),
    write_count: z.number().int().min(0).optional(),
    state: z.unknown().optional(),
    duplicate_writes: z.number().int().min(0).optional(),
    unauthorized_calls: z.number().int().min(0).optional(),
  })
  .loose();
export type TccObservedEntry = z.infer<typeof TccObservedEntry>;

/**
 * An observation file: keyed by check id; `null` or absent = no evidence → untested. A null-prototype
 * object, so a check id such as `constructor` finds no entry unless the file has one.
 */
export const TccObservations = dict(text(TEXT_MAX.short, 1), TccObservedEntry.nullable(), LIST_MAX.checks * 10);
export type TccObservations = z.infer<typeof TccObservations>;
