import { SpecError } from '../schema/common';
import { checkAstEntry, checkRelevanceEntry, type CheckerOptions } from './checker';
import { categoryOf, isRelevanceCategory, type BfclAnswer, type BfclQuestion, type BfclResult } from './data';

export interface BfclEntryScore {
  id: string;
  valid: boolean;
  /** BFCL's error type (e.g. `simple_function_checker:wrong_count`, `type_error:simple`); null when valid. */
  error_type: string | null;
}

export interface BfclScore {
  category: string;
  total: number;
  correct: number;
  accuracy: number;
  results: BfclEntryScore[];
}

export interface BfclScoreDetail extends BfclScore {
  /** BFCL's error messages per invalid id (not part of the `--json` shape). */
  errors: Record<string, string[]>;
  /** Result ids with no question (ignored). */
  unknownResultIds: string[];
}

export interface ScoreBfclInput {
  questions: BfclQuestion[];
  /** Ground truth; required except for relevance / irrelevance categories. */
  answers?: BfclAnswer[] | null;
  results: BfclResult[];
  /** Defaults to the category of the first question id. */
  category?: string;
  options?: CheckerOptions;
}

/** The error type of a question with no entry in the result file (BFCL itself refuses such a file). */
export const MISSING_RESULT = 'result:missing';

/**
 * Score a BFCL result file against BFCL data, entry by entry as BFCL's eval runner does. Every question
 * counts in `total`; a question without a result is invalid (`result:missing`).
 */
export function scoreBfcl(input: ScoreBfclInput): BfclScoreDetail {
  const { questions, results } = input;
  if (questions.length === 0) throw new SpecError('the question file has no entries');
  const category = input.category ?? categoryOf(questions[0].id);
  if (/java|multi_turn|memory|web_search|agentic|format_sensitivity/.test(category))
    throw new SpecError(
      `category "${category}" is not supported: only single-turn Python-style categories (simple, multiple, parallel, parallel_multiple, live_*, irrelevance, relevance)`,
    );
  const relevance = isRelevanceCategory(category);
  const answers = new Map((input.answers ?? []).map((a) => [a.id, a]));
  if (!relevance && !input.answers) throw new SpecError(`category "${category}" needs its possible-answer file (--answers)`);
  const byId = new Map(results.map((r) => [r.id, r]));
  const questionIds = new Set(questions.map((q) => q.id));
  const errors = Object.create(null) as Record<string, string[]>;
  const scored: BfclEntryScore[] = questions.map((q) => {
    const r = byId.get(q.id);
    if (!r) {
      errors[q.id] = ['No result for this question.'];
      return { id: q.id, valid: false, error_type: MISSING_RESULT };
    }
    let outcome;
    if (relevance) outcome = checkRelevanceEntry(category, r.result);
    else {
      const a = answers.get(q.id);
      if (!a) throw new SpecError(`the possible-answer file has no entry for "${q.id}"`);
      outcome = checkAstEntry(category, q.function, r.result, a.ground_truth, input.options);
    }
    if (!outcome.valid) errors[q.id] = outcome.error;
    return { id: q.id, valid: outcome.valid, error_type: outcome.errorType };
  });
  const correct = scored.filter((s) => s.valid).length;
  return {
    category,
    total: scored.length,
    correct,
    accuracy: correct / scored.length,
    results: scored,
    errors,
    unknownResultIds: results.map((r) => r.id).filter((id) => !questionIds.has(id)),
  };
}

/** The `--json` shape: `{category, total, correct, accuracy, results: [{id, valid, error_type}]}`. */
export function publicScore(s: BfclScore): BfclScore {
  return {
    category: s.category,
    total: s.total,
    correct: s.correct,
    accuracy: s.accuracy,
    results: s.results.map(({ id, valid, error_type }) => ({ id, valid, error_type })),
  };
}
