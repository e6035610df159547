import { env, type Env } from '../env';
import { AccessDenied, can, type Actor } from '../auth/roles';
import { McpListError, splitCommandLine, type McpClientOptions, type McpTargetInput } from './client';
import { parseAllowedUrls } from './guarded-fetch';

// Running a program on the server is an admin's decision (docs/edge-inputs.md). What a door of the web app may import
// MCP tools from, for the actor asking:
//   - a server an admin configured (TCLAB_MCP_SERVERS), picked by name, its command and arguments as given;
//   - any command line, only with `server.exec` (an admin, or the local user in single-user mode);
//   - a URL: with `server.exec` anywhere; otherwise only public addresses or URLs an admin listed
//     (TCLAB_MCP_ALLOWED_URLS), decided before any connection (lib/mcp/guarded-fetch.ts).
// The CLI does not come here: whoever runs `tclab mcp …` already runs programs on this machine.

export type McpImportRequest = { kind: 'listed'; name: string } | { kind: 'command'; line: string } | { kind: 'url'; url: string };

export interface McpImportPlan {
  target: McpTargetInput;
  options: McpClientOptions;
}

/** The servers of TCLAB_MCP_SERVERS by name, for the import form (commands are not shown to the browser). */
export function configuredServerNames(e: Env = env()): string[] {
  return e.TCLAB_MCP_SERVERS.map((s) => s.name);
}

/** Whether the actor may start a command of their own and reach any address. */
export function mayRunAnyCommand(actor: Actor): boolean {
  return can(actor.role, 'server.exec');
}

/**
 * The target and guard for an import the actor asks for. Throws AccessDenied (403) for a command line the
 * actor may not start — before anything is spawned — and McpListError for a name that is not configured.
 */
export function planMcpImport(actor: Actor, req: McpImportRequest, e: Env = env()): McpImportPlan {
  const unrestricted = mayRunAnyCommand(actor);
  const options: McpClientOptions = unrestricted ? {} : { guard: { allowedUrls: parseAllowedUrls(e.TCLAB_MCP_ALLOWED_URLS) } };
  if (req.kind === 'listed') {
    const s = e.TCLAB_MCP_SERVERS.find((x) => x.name === req.name);
    if (!s) throw new McpListError(`no MCP server named "${req.name}" is configured (TCLAB_MCP_SERVERS)`, 'invalid');
    return { target: { kind: 'stdio', command: s.command, args: s.args, env: s.env, cwd: s.cwd }, options };
  }
  if (req.kind === 'command') {
    if (!unrestricted)
      throw new AccessDenied(403, `your role (${actor.role}) may not start a command on the server: pick one of the MCP servers an admin configured (TCLAB_MCP_SERVERS)`);
    return { target: { kind: 'stdio', ...splitCommandLine(req.line) }, options };
  }
  return { target: { kind: 'http', url: req.url }, options };
}
