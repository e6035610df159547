import type { Command } from 'commander';
import { ExperimentSpec } from '../../lib/schema/experiment';
import { getTemplate } from '../../lib/templates';
import { planExperiment, type ExperimentPlan } from '../../lib/design/plan';
import { DEFAULT_PRICE_TABLE, PriceTable } from '../../lib/design/cost';
import { UsageError } from '../errors';
import { parseFile, readJsonFile } from './compare';

export function register(program: Command): void {
  program
    .command('plan')
    .description("an experiment's matrix before it runs: trials, pairs, formal requests, pre-checks, tokens per catalog, estimated cost, warnings (no database needed)")
    .argument('[file]', 'an experiment spec JSON file (tclab.experiment/v1)')
    .option('--template <id>', 'a built-in template instead of a file, e.g. reference-study')
    .option('--price <file>', 'a price table JSON: {"currency": "USD", "outputTokensPerRequest": 150, "prices": [{"provider", "model", "inputPerMTok", "outputPerMTok"}]}')
    .option('--json', 'print the plan as JSON')
    .action((file: string | undefined, opts: { template?: string; price?: string; json?: boolean }) => {
      if (Boolean(file) === Boolean(opts.template)) throw new UsageError('give one experiment: a spec file, or --template');
      let spec: ExperimentSpec;
      if (opts.template) {
        let build: () => unknown;
        try {
          build = getTemplate(opts.template).build;
        } catch (e) {
          throw new UsageError(`--template: ${(e as Error).message}`);
        }
        spec = ExperimentSpec.parse(build());
      } else spec = parseFile(ExperimentSpec, readJsonFile(file!), file!, 'experiment spec');
      const prices = opts.price ? parseFile(PriceTable, readJsonFile(opts.price), opts.price, 'price table') : DEFAULT_PRICE_TABLE;
      const plan = planExperiment(spec, prices);
      process.stdout.write(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
    });
}

const int = (n: number) => n.toLocaleString('en');

export function formatPlan(plan: ExperimentPlan): string {
  const lines: string[] = ['study/condition/scenario/locale                  cases × orders × replicates = trials'];
  for (const c of plan.cells)
    lines.push(`${`${c.study}/${c.condition}/${c.scenario}/${c.locale}`.padEnd(48)} ${String(c.cases).padStart(5)} × ${String(c.orders).padStart(6)} × ${String(c.replicates).padStart(10)} = ${int(c.trials).padStart(6)}`);
  lines.push('');
  for (const s of plan.matrix.studies) {
    const conds = s.conditions.map((c) => `${c.condition}${c.baseline ? ' (baseline)' : ''} ${int(c.trials)}`).join(', ');
    lines.push(`${s.study} (${s.kind}): ${conds}; pairs ${int(s.pairs)}; trials ${int(s.trials)}`);
  }
  lines.push(`formal requests: ${int(plan.matrix.formal)} · pre-checks: ${int(plan.matrix.prechecks)} (sent before the run, never in any denominator)`);
  lines.push('', `tokens per catalog (≈, ${plan.tokenizer})`);
  for (const c of plan.catalogs) lines.push(`  ${`${c.study}/${c.condition}/${c.scenario}/${c.locale}`.padEnd(46)} ${String(c.tools).padStart(3)} tools ${int(c.tokens).padStart(7)}`);
  lines.push('', `estimated cost of the formal requests (input ≈ ${int(plan.inputTokens)} tokens; output ≈ ${int(plan.costs[0]?.outputTokens ?? 0)} tokens assumed)`);
  if (plan.costs.length === 0) lines.push('  (no prices: give --price FILE)');
  for (const c of plan.costs) lines.push(`  ${`${c.provider}/${c.model}`.padEnd(40)} ${plan.currency} ${c.cost.toFixed(4)}`);
  lines.push('', plan.warnings.length ? 'warnings' : 'no warnings');
  for (const w of plan.warnings) lines.push(`  ! ${w}`);
  return `${lines.join('\n')}\n`;
}
