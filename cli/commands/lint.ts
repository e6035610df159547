import { Option, type Command } from 'commander';
import type { ExperimentSpec } from '../../lib/schema/experiment';
import { parseSpecValue } from '../../lib/experiments/parse';
import { readJson } from '../../lib/schema/input';
import { getTemplate } from '../../lib/templates';
import { deadlineCheck, lintExperiment, LintTimeoutError, lintTools, type LintFinding, type LintOptions, type ToolFileFinding } from '../../lib/design/lint';
import { catalogCosts, TOKENIZER, wireToolsCost } from '../../lib/design/tokens';
import { DEFAULT_MCP_TIMEOUT_MS, listMcpTools, McpListError } from '../../lib/mcp/client';
import { readToolFile, ToolFileError, type ImportedTool } from '../../lib/mcp/tools';
import { UsageError } from '../errors';
import { fileValue, readInputFile } from './compare';
import { out, setExitCode } from '../output';
import { mcpExtraOptions, mcpTarget, timeoutOf, type McpCliOptions } from './mcp-options';

type LintCliOptions = McpCliOptions & { template?: string; json?: boolean; mcpStdio?: string; mcpUrl?: string };

/** `tclab lint`'s time limit for the whole command when --timeout-ms is not given. */
const DEFAULT_LINT_TIMEOUT_MS = 60_000;

export function register(program: Command): void {
  const cmd = program
    .command('lint')
    .description('lint tool descriptions and estimate each tool catalog in tokens (no database needed)')
    .argument('[file]', 'an experiment spec (tclab.experiment/v1), an MCP tools/list JSON, a JSON array of MCP tools, or an OpenAI tools array')
    .option('--template <id>', 'a built-in template instead of a file, e.g. reference-study')
    .option('--mcp-stdio <command>', 'a live MCP server started as a child process: "CMD ARGS…"')
    .option('--mcp-url <url>', 'a live MCP server over Streamable HTTP')
    .option('--json', 'print the findings as JSON ({findings: [{tool, rule, level, message}, …]}, and the catalogs)');
  for (const o of mcpExtraOptions)
    cmd.addOption(
      o.long === '--timeout-ms'
        ? new Option(
            '--timeout-ms <ms>',
            `time limit for the whole command (default ${DEFAULT_LINT_TIMEOUT_MS}); listing a live server within it, ${DEFAULT_MCP_TIMEOUT_MS} at most unless given`,
          )
        : o,
    );
  cmd.action(async (file: string | undefined, opts: LintCliOptions) => {
    const inputs = [file, opts.template, opts.mcpStdio, opts.mcpUrl].filter(Boolean).length;
    if (inputs !== 1) throw new UsageError('give one input: a file, --template, --mcp-stdio or --mcp-url');
    // one time limit for the whole command: listing a live server, reading, linting, counting tokens
    const given = timeoutOf(opts);
    const timeoutMs = given ?? DEFAULT_LINT_TIMEOUT_MS;
    const lint: LintOptions = { deadline: { at: Date.now() + timeoutMs, timeoutMs } };
    try {
      await lintInput(file, opts, lint, given ?? DEFAULT_MCP_TIMEOUT_MS);
    } catch (e) {
      if (e instanceof LintTimeoutError) throw new UsageError(`${e.message}: nothing was printed; give a larger --timeout-ms (up to 600000)`);
      throw e;
    }
  });
}

async function lintInput(file: string | undefined, opts: LintCliOptions, lint: LintOptions, listingMs: number): Promise<void> {
  const deadline = lint.deadline!;
  if (opts.mcpStdio || opts.mcpUrl) {
    const target = mcpTarget(opts.mcpStdio, opts.mcpUrl, opts, { stdio: '--mcp-stdio', url: '--mcp-url' });
    try {
      const listed = await listMcpTools(target, { timeoutMs: Math.max(1, Math.min(listingMs, deadline.at - Date.now())) });
      return lintToolList(listed.tools, opts.mcpStdio ?? opts.mcpUrl!, opts.json, lint);
    } catch (e) {
      if (e instanceof McpListError || e instanceof ToolFileError) throw new UsageError(e.message);
      throw e;
    }
  }
  if (opts.template) return lintSpec(templateSpec(opts.template), opts.json, lint);
  // the same reading as every door (lib/experiments/parse.ts): limits, encoding, depth, then the schema
  const value = fileValue(readJson(readInputFile(file!)), file!, 'JSON file');
  deadlineCheck(deadline)();
  // an experiment says so in its format field; anything else must be a tool file
  if (value && typeof value === 'object' && !Array.isArray(value) && 'format' in value)
    return lintSpec(fileValue(parseSpecValue(value), file!, 'experiment spec'), opts.json, lint);
  let tools: ImportedTool[];
  try {
    tools = readToolFile(value).tools;
  } catch (e) {
    if (e instanceof ToolFileError) throw new UsageError(`${file}: ${e.message} — or an experiment spec ({"format": "tclab.experiment/v1", …})`);
    throw e;
  }
  // as every other door refuses to import or pick nothing
  if (tools.length === 0) throw new UsageError(`${file}: the tool list is empty (0 tools): nothing to lint`);
  return lintToolList(tools, file!, opts.json, lint);
}

function lintSpec(spec: ExperimentSpec, json: boolean | undefined, lint: LintOptions): void {
  const findings = lintExperiment(spec, lint);
  const catalogs = catalogCosts(spec, deadlineCheck(lint.deadline));
  if (json) out(`${JSON.stringify({ tokenizer: TOKENIZER, catalogs, findings }, null, 2)}\n`);
  else out(report(catalogs, findings));
  // findings are advice; errors (e.g. two tools described alike) fail a CI step that runs this
  if (findings.some((f) => f.level === 'error')) setExitCode(1);
}

function lintToolList(tools: ImportedTool[], what: string, json: boolean | undefined, lint: LintOptions): void {
  const findings = lintTools(tools, lint);
  const cost = wireToolsCost(
    tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    deadlineCheck(lint.deadline),
  );
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
