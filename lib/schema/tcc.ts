import { z } from 'zod';
import { JsonObject } from './common';

/**
 * TCC v0.1 — the public case-card format of seed 000 (Task–Call Contract). Imported and exported
 * unchanged: unknown keys are kept (`loose`) so a card round-trips byte-for-byte in meaning.
 */
export const Decision = z.enum(['read', 'write', 'clarify', 'stop']);
export type Decision = z.infer<typeof Decision>;

export const TccExpected = z
  .object({
    decision: Decision.optional(),
    /** Extension: the scenario tool id the first call must name (DESIGN §6 "first tool call's name"). */
    tool: z.string().optional(),
    call_count: z.number().int().min(0).optional(),
    /** The complete call: each key maps to a value, or (for non-array parameters) a list of acceptable values. */
    arguments: JsonObject.optional(),
    label: z.string().optional(),
    write_count: z.number().int().min(0).optional(),
  })
  .loose();
export type TccExpected = z.infer<typeof TccExpected>;

export const TccAxis = z.enum(['task_fit', 'call_result']);
export type TccAxis = z.infer<typeof TccAxis>;

export const TccCheck = z
  .object({
    id: z.string().min(1),
    axis: TccAxis,
    condition: z.string().default(''),
    expected: TccExpected,
  })
  .loose();
export type TccCheck = z.infer<typeof TccCheck>;

export const EvidenceGateItem = z
  .object({
    claim: z.string(),
    evidence_ref: z.string().nullable(),
    status: z.enum(['verified', 'unknown', 'contradicted']),
  })
  .loose();

export const TccCard = z
  .object({
    tcc_version: z.literal('0.1'),
    case_id: z.string().min(1),
    locale: z.string().min(1),
    task: z.string(),
    context: z
      .object({
        client: z.string().nullable().optional(),
        model: z.string().nullable().optional(),
        tool_set_ref: z.string().nullable().optional(),
        fixture_ref: z.string().nullable().optional(),
        mode: z.string().nullable().optional(),
      })
      .loose(),
    evidence_gate: z.array(EvidenceGateItem).default([]),
    checks: z.array(TccCheck).min(1),
  })
  .loose();
export type TccCard = z.infer<typeof TccCard>;

/** What was observed for one check; same field names as `expected`. */
export const TccObservedEntry = z
  .object({
    decision: z.string().optional(),
    tool: z.string().optional(),
    call_count: z.number().int().min(0).optional(),
    arguments: JsonObject.nullable().optional(),
    label: z.string().nullable().optional(),
    write_count: z.number().int().min(0).optional(),
  })
  .loose();
export type TccObservedEntry = z.infer<typeof TccObservedEntry>;

/** An observation file: keyed by check id; `null` or absent = no evidence → untested. */
export const TccObservations = z.record(z.string(), TccObservedEntry.nullable());
export type TccObservations = z.infer<typeof TccObservations>;
