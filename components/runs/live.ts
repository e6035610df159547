import type { RunProgress } from '@/lib/db/runs';

/** What GET /api/runs/[id]/progress returns. */
export interface RunLiveState {
  status: string;
  statusReason: string | null;
  progress: RunProgress;
}

export type ControlAction = 'pause' | 'resume' | 'cancel';

/** Which control actions a run status allows (mirrors lib/runner/control.ts). */
export const ALLOWED_ACTIONS: Record<ControlAction, readonly string[]> = {
  pause: ['running', 'prechecking'],
  resume: ['paused', 'failed'],
  cancel: ['created', 'prechecking', 'running', 'paused', 'failed'],
};
