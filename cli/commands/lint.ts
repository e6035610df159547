import type { Command } from 'commander';
import type { ExperimentSpec } from '../../lib/schema/experiment';
import { parseSpecValue } from '../../lib/experiments/parse';
import { readJson } from '../../lib/schema/input';
import { getTemplate } from '../../lib/templates';
import { lintExperiment, lintTools, type LintFinding, type ToolFileFinding } from '../../lib/design/lint';
import { catalogCosts, TOKENIZER, wireToolsCost } from '../../lib/design/tokens';
import { listMcpTools, McpListError } from '../../lib/mcp/client';
import { readToolFile, ToolFileError, type ImportedTool } from '../../lib/mcp/tools';
import { UsageError } from '../errors';
import { fileValue, readInputFile } from './compare';
import { out, setExitCode } from '../output';
import { mcpExtraOptions, mcpTarget, timeoutOf, type McpCliOptions } from './mcp-options';

type LintOptions = McpCliOptions & { template?: string; json?: boolean; mcpStdio?: string; mcpUrl?: string };

export function register(program: Command): void {
  const cmd = program
    .command('lint')
    .description('lint tool descriptions and estimate each tool catalog in tokens (no database needed)')
    .argument('[file]', 'an experiment spec (tclab.experiment/v1), an MCP tools/list JSON, a JSON array of MCP tools, or an OpenAI tools array')
    .option('--template <id>', 'a built-in template instead of a file, e.g. reference-study')
    .option('--mcp-stdio <command>', 'a live MCP server started as a child process: "CMD ARGS…"')
    .option('--mcp-url <url>', 'a live MCP server over Streamable HTTP')
    .option('--json', 'print the findings as JSON ({findings: [{tool, rule, level, message}, …]}, and the catalogs)');
  for (const o of mcpExtraOptions) cmd.addOption(o);
  cmd.action(async (file: string | undefined, opts: LintOptions) => {
    const given = [file, opts.template, opts.mcpStdio, opts.mcpUrl].filter(Boolean).length;
    if (given !== 1) throw new UsageError('give one input: a file, --template, --mcp-stdio or --mcp-url');
    if (opts.mcpStdio || opts.mcpUrl) {
      const target = mcpTarget(opts.mcpStdio, opts.mcpUrl, opts, { stdio: '--mcp-stdio', url: '--mcp-url' });
      try {
        const listed = await listMcpTools(target, { timeoutMs: timeoutOf(opts) });
        return lintToolList(listed.tools, opts.mcpStdio ?? opts.mcpUrl!, opts.json);
      } catch (e) {
        if (e instanceof McpListError) throw new UsageError(e.message);
        throw e;
      }
    }
    if (opts.template) return lintSpec(templateSpec(opts.template), opts.json);
    // the same reading as every door (lib/experiments/parse.ts): limits, encoding, depth, then the schema
    const value = fileValue(readJson(readInputFile(file!)), file!, 'JSON file');
    // an experiment says so in its format field; anything else must be a tool file
    if (value && typeof value === 'object' && !Array.isArray(value) && 'format' in value)
      return lintSpec(fileValue(parseSpecValue(value), file!, 'experiment spec'), opts.json);
    try {
      return lintToolList(readToolFile(value).tools, file!, opts.json);
    } catch (e) {
      if (e instanceof ToolFileError) throw new UsageError(`${file}: ${e.message} — or an experiment spec ({"format": "tclab.experiment/v1", …})`);
      throw e;
    }
  });
}

function lintSpec(spec: ExperimentSpec, json?: boolean): void {
  const catalogs = catalogCosts(spec);
  const findings = lintExperiment(spec);
  if (json) out(`${JSON.stringify({ tokenizer: TOKENIZER, catalogs, findings }, null, 2)}\n`);
  else out(report(catalogs, findings));
  // findings are advice; errors (e.g. two tools described alike) fail a CI step that runs this
  if (findings.some((f) => f.level === 'error')) setExitCode(1);
}

function lintToolList(tools: ImportedTool[], what: string, json?: boolean): void {
  const findings = lintTools(tools);
  const cost = wireToolsCost(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })));
  if (json) out(`${JSON.stringify({ findings, tokenizer: TOKENIZER, catalog: cost }, null, 2)}\n`);
  else out(toolReport(what, cost, findings));
  if (findings.some((f) => f.level === 'error')) setExitCode(1);
}

function templateSpec(id: string): ExperimentSpec {
  let t: ReturnType<typeof getTemplate>;
  try {
    t = getTemplate(id);
  } catch (e) {
    throw new UsageError(`--template: ${(e as Error).message}`);
  }
  return fileValue(parseSpecValue(t.build()), `template ${id}`, 'experiment spec');
}

function toolReport(what: string, cost: ReturnType<typeof wireToolsCost>, findings: ToolFileFinding[]): string {
  const lines = [`${what}: ${cost.tools} tools, ≈${cost.tokens} tokens (${TOKENIZER})`];
  for (const f of findings) lines.push(`    ${f.level} ${f.rule}: ${f.tool}: ${f.message}`);
  const errors = findings.filter((f) => f.level === 'error').length;
  lines.push(`${findings.length} findings (${errors} errors, ${findings.length - errors} warnings)`);
  return `${lines.join('\n')}\n`;
}

function report(catalogs: ReturnType<typeof catalogCosts>, findings: LintFinding[]): string {
  const lines = [`catalog (study/condition/scenario/locale)   tools  ≈tokens (${TOKENIZER})  findings`];
  for (const c of catalogs) {
    const mine = findings.filter((f) => f.study === c.study && f.condition === c.condition && f.scenario === c.scenario && f.locale === c.locale);
    lines.push(
      `${`${c.study}/${c.condition}/${c.scenario}/${c.locale}`.padEnd(44)} ${String(c.tools).padStart(5)}  ${String(c.tokens).padStart(7)}  ${mine.length || 'clean'}`,
    );
    for (const f of mine) lines.push(`    ${f.level} ${f.rule}: ${f.tool}: ${f.message}`);
  }
  const errors = findings.filter((f) => f.level === 'error').length;
  lines.push(`${findings.length} findings (${errors} errors, ${findings.length - errors} warnings)`);
  return `${lines.join('\n')}\n`;
}
