import { z } from 'zod';
import { routeActor } from '@/app/_auth/guard';
import { AccessDenied } from '@/lib/auth/roles';
import { importServerTools } from '@/lib/experiments/tool-snapshots';
import { McpListError } from '@/lib/mcp/client';
import { planMcpImport } from '@/lib/mcp/policy';

export const dynamic = 'force-dynamic';

const Body = z.union([
  z.object({ server: z.string().min(1) }).strict(),
  z.object({ command: z.string().min(1) }).strict(),
  z.object({ url: z.string().min(1) }).strict(),
]);

/**
 * List a live MCP server's tools and store the snapshot, as the New experiment form does: `{server}` (one of
 * TCLAB_MCP_SERVERS), `{command}` (admins and single-user mode only) or `{url}` (lib/mcp/policy.ts).
 */
export async function POST(req: Request): Promise<Response> {
  const { actor, denied } = await routeActor(req, 'experiment.write');
  if (denied) return denied;
  const body = Body.safeParse(await req.json().catch(() => null));
  if (!body.success) return Response.json({ ok: false, error: 'the body must be one of {"server": name}, {"command": line}, {"url": url}' }, { status: 400 });
  const b = body.data;
  try {
    const plan = planMcpImport(
      actor,
      'server' in b ? { kind: 'listed', name: b.server } : 'command' in b ? { kind: 'command', line: b.command } : { kind: 'url', url: b.url },
    );
    const snap = await importServerTools(plan.target, plan.options);
    return Response.json(
      { ok: true, id: snap.id, sha256: snap.sha256, server: snap.server, tools: snap.tools.map((t) => ({ name: t.name, effect: t.effect })) },
      { status: 201 },
    );
  } catch (e) {
    if (e instanceof AccessDenied) return Response.json({ ok: false, error: e.message }, { status: e.status });
    if (e instanceof McpListError) return Response.json({ ok: false, error: e.message }, { status: e.reason === 'refused' ? 403 : e.reason === 'invalid' ? 400 : 502 });
    throw e;
  }
}
