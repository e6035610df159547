import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { categoryOf, isRelevanceCategory, loadAnswers, loadQuestions, loadResults } from '../../lib/bfcl/data';
import { importBfcl } from '../../lib/bfcl/import';
import { publicScore, scoreBfcl, type BfclScoreDetail } from '../../lib/bfcl/score';
import { UsageError } from '../errors';
import { err, out } from '../output';

interface ScoreOptions {
  questions: string;
  answers?: string;
  results: string;
  category?: string;
  json?: boolean;
  underscoreToDot?: boolean;
}

interface ImportOptions {
  questions: string;
  answers?: string;
  category?: string;
  limit?: string;
  out?: string;
}

/** The possible-answer file: given, or `possible_answer/<same name>` beside the question file (BFCL's layout). */
export function answersPath(questions: string, given: string | undefined, category: string): string | null {
  if (given) return given;
  const beside = path.join(path.dirname(questions), 'possible_answer', path.basename(questions));
  if (existsSync(beside)) return beside;
  if (isRelevanceCategory(category)) return null;
  throw new UsageError(`${questions}: category "${category}" needs its possible-answer file; none at ${beside} (use --answers)`);
}

export function formatScore(s: BfclScoreDetail, maxListed = 100): string {
  const pct = (100 * s.accuracy).toFixed(2);
  const lines = [`BFCL ${s.category}: ${s.correct}/${s.total} correct (${pct}%)`];
  const counts = new Map<string, number>();
  for (const r of s.results) if (!r.valid && r.error_type) counts.set(r.error_type, (counts.get(r.error_type) ?? 0) + 1);
  if (counts.size > 0) {
    lines.push('', 'error types:');
    for (const [t, n] of [...counts].sort((a, b) => b[1] - a[1])) lines.push(`  ${String(n).padStart(5)}  ${t}`);
    const invalid = s.results.filter((r) => !r.valid);
    lines.push('', 'invalid entries:');
    for (const r of invalid.slice(0, maxListed)) lines.push(`  ${r.id}  ${r.error_type}  ${(s.errors[r.id] ?? []).join(' ').slice(0, 240)}`);
    if (invalid.length > maxListed) lines.push(`  … ${invalid.length - maxListed} more (use --json)`);
  }
  return `${lines.join('\n')}\n`;
}

export function runBfclScore(opts: ScoreOptions): { output: string; score: BfclScoreDetail } {
  const questions = loadQuestions(opts.questions);
  if (questions.length === 0) throw new UsageError(`${opts.questions}: no entries`);
  const category = opts.category ?? categoryOf(questions[0].id);
  const answersFile = isRelevanceCategory(category) && !opts.answers ? null : answersPath(opts.questions, opts.answers, category);
  const answers = answersFile ? loadAnswers(answersFile) : null;
  const results = loadResults(opts.results);
  const score = scoreBfcl({ questions, answers, results, category, options: { underscoreToDot: opts.underscoreToDot } });
  const output = opts.json ? `${JSON.stringify(publicScore(score), null, 2)}\n` : formatScore(score);
  return { output, score };
}

export function runBfclImport(opts: ImportOptions): { json: string; skipped: string[]; cases: number } {
  const questions = loadQuestions(opts.questions);
  if (questions.length === 0) throw new UsageError(`${opts.questions}: no entries`);
  const category = opts.category ?? categoryOf(questions[0].id);
  const answersFile = isRelevanceCategory(category) && !opts.answers ? null : answersPath(opts.questions, opts.answers, category);
  const limit = opts.limit === undefined ? undefined : Number(opts.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError(`--limit must be a positive integer, got "${opts.limit}"`);
  const { spec, skipped } = importBfcl({ questions, answers: answersFile ? loadAnswers(answersFile) : null, category, limit });
  return { json: `${JSON.stringify(spec, null, 2)}\n`, skipped, cases: spec.studies[0].cases.length };
}

export function register(program: Command): void {
  const bfcl = program.command('bfcl').description('Berkeley Function Calling Leaderboard data: score result files, import categories');
  bfcl
    .command('score')
    .description("score a BFCL result file (JSON lines {id, result}) with BFCL's AST-checker rules")
    .requiredOption('--questions <file>', 'BFCL question file (JSON lines)')
    .option('--answers <file>', 'possible-answer file (default: possible_answer/<same name> beside the questions)')
    .requiredOption('--results <file>', 'result file: JSON lines {"id", "result": [{"func": {args} | "<json args>"}] | "text"}')
    .option('--category <name>', 'test category (default: from the question ids)')
    .option('--underscore-to-dot', 'the model could not use "." in names: compare "a.b" as "a_b" (BFCL underscore_to_dot)')
    .option('--json', 'print {category, total, correct, accuracy, results: [{id, valid, error_type}]}')
    .action((opts: ScoreOptions) => {
      const { output, score } = runBfclScore(opts);
      for (const id of score.unknownResultIds) err(`tclab: ${opts.results}: "${id}" is not a question of ${opts.questions} (ignored)\n`);
      out(output);
    });
  bfcl
    .command('import')
    .description('turn a BFCL category into an experiment spec (tclab.experiment/v1) with conditions as-published and candidate')
    .requiredOption('--questions <file>', 'BFCL question file (JSON lines)')
    .option('--answers <file>', 'possible-answer file (default: possible_answer/<same name> beside the questions)')
    .option('--category <name>', 'test category (default: from the question ids)')
    .option('--limit <n>', 'import only the first n questions')
    .option('--out <file>', 'write the spec here instead of stdout')
    .action((opts: ImportOptions) => {
      const r = runBfclImport(opts);
      if (r.skipped.length > 0)
        err(`tclab: ${r.skipped.length} questions without functions left out: ${r.skipped.slice(0, 5).join(', ')}${r.skipped.length > 5 ? ', …' : ''}\n`);
      if (opts.out) {
        writeFileSync(opts.out, r.json);
        err(`wrote ${r.cases} cases → ${opts.out}\n`);
      } else out(r.json);
    });
}
