import type { Observation, ToolCall } from './observation';
import type { TurnToolResult } from './request';

/** One completed turn as stored: the model's answer, and what its calls did. */
export interface StoredTurn {
  n: number;
  attemptN: number;
  observation: Observation;
  /** The calls of the answer, each with the id used on the wire. */
  calls: (ToolCall & { id: string })[];
  results: TurnToolResult[];
  /** Kind-specific evidence of the turn (task: the fixture log entries of its calls). */
  evidence: unknown;
  /** What the provider reported the model could see before it answered (vendor tool search only). */
  visible?: string[];
}
