'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { actionActor } from '@/components/auth/action-guard';
import { CandidateReviewError, joinCasesToExperiment, reviewCandidate, saveCasesAsExperiment } from '@/lib/cases/review';
import { candidateForReview } from '@/lib/cases/read';
import { SpecError } from '@/lib/schema/common';
import { issuesOf, type ActionState } from '@/lib/experiments/import';
import { urls } from '@/lib/urls';
import { reviewFromForm } from './case-forms';

/** The field a use case's message names ("sample: …", "arguments.city: …"), for the form to show it there. */
function issueOf(e: Error, fallback: string): ActionState {
  const m = /^([\w.-]+): (.*)$/s.exec(e.message);
  return { issues: [{ path: m ? m[1] : fallback, message: m ? m[2] : e.message }], message: 'Nothing was stored.' };
}

/** A reviewer's decision on one candidate (its group goes with it); then the next unreviewed one. */
export async function reviewCandidateAction(importId: string, seq: number, _prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await actionActor('review.write');
  const review = reviewFromForm(form);
  if (!review.ok) return { issues: review.issues, message: 'Not saved: nothing was stored.' };
  try {
    await reviewCandidate(importId, seq, review.value, actor);
  } catch (e) {
    if (e instanceof CandidateReviewError) return { ...issueOf(e, 'decision'), message: 'Not saved: nothing was stored.' };
    throw e;
  }
  revalidatePath(urls.traceImport(importId), 'layout');
  const next = (await candidateForReview(importId, seq))?.nextUnreviewed ?? null;
  redirect(next === null ? urls.traceImport(importId) : urls.candidate(importId, next));
}

/** The accepted cases of an import as a new experiment (its first version). */
export async function saveCasesAction(importId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const actor = await actionActor('experiment.write');
  const id = String(form.get('id') ?? '').trim();
  const name = String(form.get('name') ?? '').trim();
  let experimentId: string;
  try {
    experimentId = (await saveCasesAsExperiment(importId, { id, name }, actor)).experiment.id;
  } catch (e) {
    if (e instanceof CandidateReviewError) return issueOf(e, 'cases');
    if (e instanceof SpecError) return { issues: issuesOf(e), message: 'The experiment could not be saved; nothing was stored.' };
    throw e;
  }
  revalidatePath('/');
  redirect(urls.experiment(experimentId, { imported: 'new' }));
}

/** The joined version and what could not join, for the form to show (nothing is redirected: the lists matter). */
export interface JoinCasesState extends ActionState {
  joined?: { experimentId: string; added: number; notJoined: string[]; unmapped: string[] };
}

/** The accepted cases of an import join a study of an existing experiment as its next version (docs/traces.md). */
export async function joinCasesAction(importId: string, _prev: JoinCasesState, form: FormData): Promise<JoinCasesState> {
  const actor = await actionActor('experiment.write');
  const field = (k: string) => String(form.get(k) ?? '').trim();
  if (!field('experimentId')) return { issues: [{ path: 'experiment', message: 'pick the experiment the cases join' }], message: 'Nothing was stored.' };
  if (!field('study')) return { issues: [{ path: 'study', message: 'name the study the cases join' }], message: 'Nothing was stored.' };
  let joined: Awaited<ReturnType<typeof joinCasesToExperiment>>;
  try {
    joined = await joinCasesToExperiment(importId, { experimentId: field('experimentId'), study: field('study'), scenario: field('scenario') || null }, actor);
  } catch (e) {
    if (e instanceof CandidateReviewError) return issueOf(e, 'cases');
    if (e instanceof SpecError) return { issues: issuesOf(e), message: 'The version could not be saved; nothing was stored.' };
    throw e;
  }
  revalidatePath('/');
  return {
    issues: [],
    message: null,
    joined: {
      experimentId: joined.experiment.id,
      added: joined.added.length,
      notJoined: joined.notJoined.map((n) => `candidate ${n.seq}: ${n.reason}`),
      unmapped: joined.unmapped,
    },
  };
}
