// Who did what, when: the actions the doors record (lib/db/audit.ts stores them) and an entry as read back.

export const AUDIT_ACTIONS = [
  'experiment.stored',
  'run.started',
  'run.paused',
  'run.resumed',
  'run.cancelled',
  'run.labelled',
  'review.saved',
  'review.assigned',
  'user.added',
  'user.role_changed',
  'traces.imported',
  'candidate.reviewed',
  'candidates.joined',
  'comparison.overridden',
  'lab.restored',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  at: Date;
  actor: string;
  actorUserId: string | null;
  action: AuditAction;
  experimentId: string | null;
  runId: string | null;
  detail: Record<string, unknown>;
}
