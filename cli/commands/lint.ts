import type { Command } from 'commander';
import { ExperimentSpec } from '../../lib/schema/experiment';
import { getTemplate } from '../../lib/templates';
import { lintExperiment, type LintFinding } from '../../lib/design/lint';
import { catalogCosts, TOKENIZER } from '../../lib/design/tokens';
import { UsageError } from '../errors';
import { parseFile, readJsonFile } from './compare';

export function register(program: Command): void {
  program
    .command('lint')
    .description('lint the tool descriptions of an experiment and estimate each tool catalog in tokens (no database needed)')
    .argument('[file]', 'an experiment spec JSON file (tclab.experiment/v1)')
    .option('--template <id>', 'a built-in template instead of a file, e.g. reference-study')
    .option('--json', 'print {catalogs, findings} as JSON')
    .action((file: string | undefined, opts: { template?: string; json?: boolean }) => {
      if (Boolean(file) === Boolean(opts.template)) throw new UsageError('give one experiment: a spec file, or --template');
      const spec = opts.template ? templateSpec(opts.template) : parseFile(ExperimentSpec, readJsonFile(file!), file!, 'experiment spec');
      const catalogs = catalogCosts(spec);
      const findings = lintExperiment(spec);
      if (opts.json) process.stdout.write(`${JSON.stringify({ tokenizer: TOKENIZER, catalogs, findings }, null, 2)}\n`);
      else process.stdout.write(report(catalogs, findings));
      // findings are advice; errors (e.g. two tools described alike) fail a CI step that runs this
      if (findings.some((f) => f.level === 'error')) process.exitCode = 1;
    });
}

function templateSpec(id: string): ExperimentSpec {
  const t = getTemplate(id);
  if (!t) throw new UsageError(`--template: no template "${id}"`);
  return ExperimentSpec.parse(t.build());
}

function report(catalogs: ReturnType<typeof catalogCosts>, findings: LintFinding[]): string {
  const lines = [`catalog (study/condition/scenario/locale)   tools  ≈tokens (${TOKENIZER})  findings`];
  for (const c of catalogs) {
    const mine = findings.filter((f) => f.study === c.study && f.condition === c.condition && f.scenario === c.scenario && f.locale === c.locale);
    lines.push(`${`${c.study}/${c.condition}/${c.scenario}/${c.locale}`.padEnd(44)} ${String(c.tools).padStart(5)}  ${String(c.tokens).padStart(7)}  ${mine.length || 'clean'}`);
    for (const f of mine) lines.push(`    ${f.level} ${f.rule}: ${f.tool}: ${f.message}`);
  }
  const errors = findings.filter((f) => f.level === 'error').length;
  lines.push(`${findings.length} findings (${errors} errors, ${findings.length - errors} warnings)`);
  return `${lines.join('\n')}\n`;
}
