import { requirePermission, can, actorUserId, type Actor } from '../auth/roles';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';
import { listUsers } from '../db/users';
import { assignUnreviewedPairs } from '../db/review-queue';

// Review pairs shared among reviewers (docs/review.md "Shared among reviewers"): who controls a run shares
// its unreviewed pairs that no one has among accounts that may review; each reviewer's queue then holds
// theirs (`?show=mine`). Only with accounts: single-user mode has one reader.

/** A refusal naming the field at fault; nothing was assigned. */
export class AssignError extends Error {
  constructor(
    readonly field: 'run' | 'reviewers',
    message: string,
  ) {
    super(message);
    this.name = 'AssignError';
  }
}

/** The accounts that may review (their emails), in the order they were added. */
export async function reviewerAccounts(): Promise<{ id: string; email: string }[]> {
  return (await listUsers()).filter((u) => can(u.role, 'review.write')).map((u) => ({ id: u.id, email: u.email }));
}

/** Shares the run's unreviewed, unassigned pairs among the accounts named by email; how many each got. */
export async function shareReviewPairs(actor: Actor, runId: string, emails: readonly string[]): Promise<{ email: string; pairs: number }[]> {
  requirePermission(actor, 'run.control');
  const run = await getRun(runId);
  if (!run) throw new AssignError('run', `no run "${runId}"`);
  const spec = (await getExperiment(run.experimentId))?.spec;
  if (!spec) throw new AssignError('run', `the run's experiment version ${run.experimentId} cannot be read`);
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) throw new AssignError('reviewers', 'pick at least one reviewer');
  const accounts = new Map((await reviewerAccounts()).map((a) => [a.email, a]));
  const unknown = wanted.filter((e) => !accounts.has(e));
  if (unknown.length) throw new AssignError('reviewers', `not an account that may review: ${unknown.join(', ')}`);
  const assignees = wanted.map((e) => accounts.get(e)!);
  const got = await assignUnreviewedPairs(run, spec, assignees, actor);
  return assignees.map((a) => ({ email: a.email, pairs: got.get(a.id) ?? 0 }));
}

/** The account a queue's `mine` reads: the actor's user id, or null in single-user mode. */
export const viewerOf = (actor: Actor): string | null => actorUserId(actor);
