import type { Command } from 'commander';
import type { ExperimentSpec } from '../../lib/schema/experiment';
import { parseSpecBytes, parseSpecValue } from '../../lib/experiments/parse';
import { readJson } from '../../lib/schema/input';
import { getTemplate } from '../../lib/templates';
import { planExperiment, type ExperimentPlan } from '../../lib/design/plan';
import { DEFAULT_PRICE_TABLE, PriceTable } from '../../lib/design/cost';
import { UsageError } from '../errors';
import { zodIssues } from '../../lib/schema/common';
import { fileValue, readInputFile } from './compare';
import { out } from '../output';

export function register(program: Command): void {
  program
    .command('plan')
    .description("an experiment's matrix before it runs: trials, pairs, formal requests, pre-checks, tokens per catalog, estimated cost, warnings (no database needed)")
    .argument('[file]', 'an experiment spec JSON file (tclab.experiment/v1)')
    .option('--template <id>', 'a built-in template instead of a file, e.g. reference-study')
    .option(
      '--price <file>',
      'a price table JSON: {"currency": "USD", "outputTokensPerRequest": 150, "prices": [{"provider", "model", "inputPerMTok", "outputPerMTok"}]}',
    )
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
        spec = fileValue(parseSpecValue(build()), `template ${opts.template}`, 'experiment spec');
      } else spec = fileValue(parseSpecBytes(readInputFile(file!)), file!, 'experiment spec');
      const prices = opts.price ? priceTable(opts.price) : DEFAULT_PRICE_TABLE;
      const plan = planExperiment(spec, prices);
      out(opts.json ? `${JSON.stringify(plan, null, 2)}\n` : formatPlan(plan));
    });
}

/** A price table file, read the way every door reads JSON (lib/schema/input.ts). */
function priceTable(file: string): PriceTable {
  const json = fileValue(readJson(readInputFile(file)), file, 'JSON file');
  const r = PriceTable.safeParse(json);
  return fileValue(r.success ? { ok: true, value: r.data } : { ok: false, issues: zodIssues(r.error) }, file, 'price table');
}

const int = (n: number) => n.toLocaleString('en');

export function formatPlan(plan: ExperimentPlan): string {
  const lines: string[] = ['study/condition/scenario/locale                  cases × orders × replicates = trials'];
  for (const c of plan.cells)
    lines.push(
      `${`${c.study}/${c.condition}/${c.scenario}/${c.locale}`.padEnd(48)} ${String(c.cases).padStart(5)} × ${String(c.orders).padStart(6)} × ${String(c.replicates).padStart(10)} = ${int(c.trials).padStart(6)}`,
    );
  lines.push('');
  for (const s of plan.matrix.studies) {
    const conds = s.conditions.map((c) => `${c.condition}${c.baseline ? ' (baseline)' : ''} ${int(c.trials)}`).join(', ');
    lines.push(`${s.study} (${s.kind}): ${conds}; pairs ${int(s.pairs)}; trials ${int(s.trials)}`);
  }
  lines.push(`formal requests: ${int(plan.matrix.formal)} · pre-checks: ${int(plan.matrix.prechecks)} (sent before the run, never in any denominator)`);
  lines.push('', `tokens per catalog (≈, ${plan.tokenizer})`);
  for (const c of plan.catalogs)
    lines.push(`  ${`${c.study}/${c.condition}/${c.scenario}/${c.locale}`.padEnd(46)} ${String(c.tools).padStart(3)} tools ${int(c.tokens).padStart(7)}`);
  if (plan.catalogScale.length > 0) {
    lines.push('', `tokens per catalog size (≈ tools sent per request, ${plan.tokenizer}; cost of those requests)`);
    for (const r of plan.catalogScale) {
      const cost = r.costs.map((c) => `${c.provider}/${c.model} ${plan.currency} ${c.cost.toFixed(4)}`).join(', ');
      lines.push(
        `  ${`${r.study}/${r.discovery}/N=${r.size}/${r.condition}`.padEnd(46)} ${r.tools.toFixed(1).padStart(6)} tools ${int(r.toolTokens).padStart(7)} tokens × ${int(r.requests)} requests  ${cost}`,
      );
    }
  }
  lines.push('', `estimated cost of the formal requests (input ≈ ${int(plan.inputTokens)} tokens; output ≈ ${int(plan.costs[0]?.outputTokens ?? 0)} tokens assumed)`);
  if (plan.costs.length === 0) lines.push('  (no prices: give --price FILE)');
  for (const c of plan.costs) lines.push(`  ${`${c.provider}/${c.model}`.padEnd(40)} ${plan.currency} ${c.cost.toFixed(4)}`);
  lines.push('', plan.warnings.length ? 'warnings' : 'no warnings');
  for (const w of plan.warnings) lines.push(`  ! ${w}`);
  return `${lines.join('\n')}\n`;
}
