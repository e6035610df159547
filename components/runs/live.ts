import type { RunProgress } from '@/lib/schema/run-row';

/** What GET /api/runs/[id]/progress returns. */
export interface RunLiveState {
  status: string;
  statusReason: string | null;
  progress: RunProgress;
}

export { controlAllowed, CONTROL_ACTIONS, type ControlAction } from '@/lib/schema/run-status';
