import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { recordMarkdown } from '../../lib/optimise/markdown';
import { recordLatex } from '../../lib/optimise/latex';
import { UsageError } from '../errors';
import { err, out, setExitCode } from '../output';
import { cliActor, shutdown } from './shared';
import { budgetOf } from './run-options';
import type { OptimisationRow, StoredDifference } from '../../lib/schema/optimisation';
import { MAX_SEED, parseRewriter, parseRule, parseShares, parseTargets, parseWhole } from '../../lib/optimise/input';
import { defaultTarget, MAX_CANDIDATES, optimise, OptimiseFailed, OptimiseInputError, prepareDatabase, type OptimiseEvent } from '../../lib/optimise/loop';
import { SpendConfirmationRequired } from '../../lib/runner/spend';
import { RewriteRefused } from '../../lib/optimise/rewriter';
import { rewriterWarnings } from '../../lib/optimise/warnings';
import { confusionsText, funnelText, perRequestText } from '../../lib/analysis/side-effects';
import { startWorker, type WorkerHandle } from '../../lib/runner/worker';
import { liveWorkerCount } from '../../lib/queue/enqueue';

// `tclab optimize`: the improve-descriptions loop from the command line (docs/optimise.md). The door parses its
// options, calls the use case (lib/optimise/loop.ts) and prints the stored record.

interface OptimizeOptions {
  experimentId?: string;
  study?: string;
  split?: string;
  seed?: string;
  rule?: string;
  candidates?: string;
  targets?: string;
  rewriter?: string;
  json?: boolean;
  md?: string;
  tex?: string;
  yes?: boolean;
  worker: boolean;
  budgetRequests?: string;
  budgetTokens?: string;
  budgetCost?: string;
}

/** Which flag an input field of the use case is. */
const FLAG: Record<string, string> = {
  experimentId: '--experiment-id',
  study: '--study',
  split: '--split',
  seed: '--seed',
  rule: '--rule',
  candidates: '--candidates',
  targets: '--targets',
  rewriter: '--rewriter',
  budget: '--budget-requests / --budget-tokens / --budget-cost',
};

export function register(program: Command): void {
  program
    .command('optimize')
    .description('improve descriptions: candidates chosen on a select split, the frozen winner confirmed once on a sealed split (docs/optimise.md)')
    .option('--experiment-id <id>', 'the stored version to improve, e.g. politely-ignored-v1')
    .option('--study <id>', 'the study whose cases are split')
    .option('--split <t/s/c>', 'tune/select/confirm percentages adding up to 100 (default: the study’s, else 40/30/30)')
    .option('--seed <n>', 'the seed of the split (default: the study’s, else 0); stored with the record')
    .option('--rule <rule>', 'the selection rule, stated before the select run: best (default) or top:M')
    .option('--candidates <k>', `at most this many candidates besides the placebo (1–${MAX_CANDIDATES}, default ${MAX_CANDIDATES})`)
    .option(
      '--targets <p:m,…>',
      'provider:model targets, comma-separated: the first runs the select split, each the confirmation (default: the template’s simulated model)',
    )
    .option('--rewriter <p:m>', 'a language model asked first, with the tune split only, for a rewrite that joins the candidates (stored as a new version)')
    .option('--yes', 'start runs past TCLAB_CONFIRM_REQUESTS / TCLAB_CONFIRM_COST')
    .option('--budget-requests <n>', "the whole loop sends at most N requests (the rewriter's, the select run's, the confirmation's)")
    .option('--budget-tokens <n>', 'the whole loop stops sending once its answers have used N tokens (input + output)')
    .option('--budget-cost <amount>', "the whole loop stops sending once its estimated cost (the price table's rows) reaches this amount")
    .option('--no-worker', 'never start an in-process worker (wait for `npm run worker` processes)')
    .option('--json', 'print the stored record as JSON')
    .option('--md <file>', 'also write the record as Markdown (for a pull request) to this file')
    .option('--tex <file>', 'also write the record as LaTeX tables (booktabs, for a paper) to this file')
    .action(async (opts: OptimizeOptions) => {
      const code = await optimizeCommand(opts);
      await shutdown();
      setExitCode(code);
    });
}

async function optimizeCommand(opts: OptimizeOptions): Promise<number> {
  if (!opts.experimentId) throw new UsageError('--experiment-id: required (a stored version, e.g. politely-ignored-v1)');
  if (!opts.study) throw new UsageError('--study: required (the study whose cases are split)');
  const { shares, seed, rule, maxCandidates, given, rewriter, budget } = (() => {
    try {
      return {
        shares: opts.split === undefined ? undefined : parseShares(opts.split),
        seed: opts.seed === undefined ? undefined : parseWhole(opts.seed, 'seed', 0, MAX_SEED),
        rule: opts.rule === undefined ? undefined : parseRule(opts.rule),
        maxCandidates: opts.candidates === undefined ? undefined : parseWhole(opts.candidates, 'candidates', 1, MAX_CANDIDATES),
        given: opts.targets === undefined ? undefined : parseTargets(opts.targets),
        rewriter: opts.rewriter === undefined ? undefined : parseRewriter(opts.rewriter),
        budget: budgetOf(opts),
      };
    } catch (e) {
      return usage(e);
    }
  })();
  await prepareDatabase();
  let worker: WorkerHandle | undefined;
  try {
    const targets = given ?? [await defaultTarget(opts.experimentId).catch(usage)];
    if (opts.worker && (await liveWorkerCount()) === 0) {
      worker = startWorker();
      await worker.ready;
    }
    const record = await optimiseOrFailed({
      experimentId: opts.experimentId,
      study: opts.study,
      shares,
      seed,
      rule,
      maxCandidates,
      targets,
      rewriter,
      budget,
      confirm: { yes: opts.yes === true, maxRequests: null },
      actor: cliActor(),
      onEvent: progress,
    });
    if (record.stage === 'failed') err(`tclab: optimisation ${record.id} failed: ${record.error}\n`);
    if (opts.md) await writeFile(opts.md, recordMarkdown(record));
    if (opts.tex) await writeFile(opts.tex, recordLatex(record));
    if (opts.json) out(`${JSON.stringify(record, null, 2)}\n`);
    else out(formatRecord(record));
    return record.stage === 'confirmed' || record.stage === 'no-winner' ? 0 : 1;
  } finally {
    if (worker) await worker.close();
  }
}

/** The loop's record, also when it failed after storing it (printed, exit 1); a refused spend is a usage error. */
async function optimiseOrFailed(input: Parameters<typeof optimise>[0]): Promise<OptimisationRow> {
  try {
    return await optimise(input);
  } catch (e) {
    if (e instanceof OptimiseFailed && !(e.cause instanceof SpendConfirmationRequired)) return e.record;
    return usage(e instanceof OptimiseFailed ? e.cause : e);
  }
}

/** The use case's input errors as usage errors naming the flag. */
function usage(e: unknown): never {
  if (e instanceof OptimiseInputError) throw new UsageError(`${FLAG[e.field] ?? e.field}: ${e.message.slice(e.field.length + 2)}`);
  if (e instanceof SpendConfirmationRequired) throw new UsageError(`${e.summary}: give --yes to start it`);
  if (e instanceof RewriteRefused) throw new UsageError(`--rewriter: ${e.message} (nothing stored)`);
  throw e;
}

function progress(e: OptimiseEvent): void {
  if (e.kind === 'sealed') err(`sealed: ${e.split.sealed.count} cases, ${e.split.sealed.sha256}\n`);
  else if (e.kind === 'rewritten') {
    const t = (n: number | null) => (n === null ? 'unreported' : n.toLocaleString('en-US'));
    const cost = e.spent.cost === null ? 'not priced (no price table row, or no usage reported)' : `${e.spent.cost.toFixed(4)} ${e.spent.currency}`;
    err(
      `rewritten by ${e.rewriter}: condition ${e.condition} in the new version ${e.experimentId} — 1 request, ${t(e.spent.inputTokens)} input + ${t(e.spent.outputTokens)} output tokens, ${cost}\n`,
    );
  } else if (e.kind === 'run') err(`${e.stage} run ${e.runId} (${e.target}, version ${e.experimentId})\n`);
  else err(`frozen: ${e.record.winners?.length ? e.record.winners.join(', ') : 'no winner'} at ${e.record.frozenAt?.toISOString()}\n`);
}

const pp = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pp`);
const interval = (d: StoredDifference) => (d.ci95 ? `[${pp(d.ci95[0])}, ${pp(d.ci95[1])}]` : `(no interval: ${d.ciReason ?? 'none'})`);

/** The record in words: the seal, every candidate ranked, the frozen winner(s), each target's reading, transfer. */
export function formatRecord(r: OptimisationRow): string {
  const lines: string[] = [];
  const rule = r.rule.kind === 'best' ? 'best' : `top ${r.rule.m}`;
  lines.push(
    `optimisation ${r.id} of ${r.experimentId}, study ${r.studyId}: split ${r.splitShares.tune}/${r.splitShares.select}/${r.splitShares.confirm}, seed ${r.splitSeed}, rule ${rule}`,
  );
  lines.push(`sealed: ${r.sealed.count} cases, ${r.sealed.sha256}`);
  for (const w of rewriterWarnings(r.candidates, r.targets)) lines.push(`warning: ${w}`);
  const ranked = r.result?.select?.ranked ?? [];
  const provenance = new Map(r.candidates.map((c) => [c.condition, c.provenance]));
  lines.push('', `select (run ${r.selectRunId ?? '—'}): every candidate against the baseline, ranked`);
  const select = r.result?.select;
  if (select?.baseline) lines.push(`  baseline ${select.baseline.condition}, per request: ${perRequestText(select.baseline.perRequest, select.currency)}`);
  for (const c of ranked) {
    const vs = c.beatsPlacebo === null ? '' : c.beatsPlacebo ? ', beats the placebo' : ', not above the placebo';
    const won = r.winners?.includes(c.candidate) ? '  ← winner' : '';
    lines.push(
      `  ${c.rank}. ${c.candidate} (${provenance.get(c.candidate) ?? '?'}): ${pp(c.difference.estimate)} ${interval(c.difference)}, ${c.improved} improved / ${c.regressed} regressed, exact p = ${c.pExact.toPrecision(2)} (uncorrected)${vs}${won}`,
    );
    if (c.sideEffects)
      lines.push(`     new confusions: ${confusionsText(c.sideEffects.newConfusions)}; per request: ${perRequestText(c.sideEffects.perRequest, select?.currency)}`);
    if (c.sideEffects?.funnel?.length) lines.push(`     funnel (found, chosen once found): ${funnelText(c.sideEffects.funnel)}`);
  }
  lines.push('', r.winners?.length ? `frozen: ${r.winners.join(', ')} at ${r.frozenAt?.toISOString()}` : 'no winner: no candidate had a select difference above 0');
  for (const c of r.result?.confirm ?? []) {
    lines.push('', `confirm look ${r.look} on ${c.target} (run ${c.runId}):`);
    for (const x of c.readings) {
      lines.push(`  ${x.candidate}: ${x.sentence}`);
      lines.push(
        `    ${x.improved} improved / ${x.regressed} regressed, ${pp(x.difference.estimate)} ${interval(x.difference)}, exact p = ${x.pExact.toPrecision(2)}, Holm-adjusted p = ${x.pHolm.toPrecision(2)} over ${x.claims} claim${x.claims === 1 ? '' : 's'}`,
      );
    }
  }
  for (const t of r.result?.transfer ?? [])
    if (t.perTarget.length >= 2)
      lines.push(
        '',
        `transfer of ${t.candidate}: ${t.perTarget.map((p) => `${p.target} ${pp(p.difference.estimate)} ${interval(p.difference)}`).join('; ')}`,
        t.heterogeneity
          ? `  Cochran's Q = ${t.heterogeneity.q.toFixed(2)} on ${t.heterogeneity.df} df, p = ${t.heterogeneity.p.toPrecision(2)}, I² = ${(t.heterogeneity.i2 * 100).toFixed(0)} %`
          : "  Cochran's Q: fewer than two targets with a standard error",
      );
  if (r.error) lines.push('', `failed: ${r.error}`);
  return `${lines.join('\n')}\n`;
}
