import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadAnswers, loadQuestions } from './data';
import { importBfcl, type ImportedBfcl } from './import';

// The BFCL categories kept in the tree (datasets/bfcl, see its NOTICE), for "new experiment from a BFCL category".
const DIR = join(process.cwd(), 'datasets', 'bfcl');

export function bfclCategories(): string[] {
  if (!existsSync(DIR)) return [];
  return readdirSync(DIR)
    .map((f) => /^BFCL_v4_(.+)\.json$/.exec(f)?.[1])
    .filter((c): c is string => Boolean(c))
    .sort();
}

/** The first `limit` questions of a category as an experiment (ground truth from its possible-answer file). */
export function importBfclCategory(category: string, limit: number): ImportedBfcl {
  if (!bfclCategories().includes(category)) throw new Error(`no BFCL category "${category}" in datasets/bfcl`);
  const questions = loadQuestions(join(DIR, `BFCL_v4_${category}.json`));
  const answersFile = join(DIR, 'possible_answer', `BFCL_v4_${category}.json`);
  const answers = existsSync(answersFile) ? loadAnswers(answersFile) : null;
  return importBfcl({ questions, answers, category, limit });
}
