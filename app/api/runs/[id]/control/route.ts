import { notFoundResponse, routeParams } from '@/app/_ids';
import { z } from 'zod';
import { controlRunAs } from '@/lib/runs/control';
import { readJson } from '@/lib/schema/input';
import { routeActor } from '@/app/_auth/guard';

export const dynamic = 'force-dynamic';

const ControlBody = z.strictObject({ action: z.enum(['pause', 'resume', 'cancel']) });

/** POST {action: pause | resume | cancel} → {ok, status, message}; 409 when the run's status does not allow it. */
export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { actor, denied } = await routeActor(req, 'run.control');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id } = ids;
  // read as every door reads JSON (lib/schema/input.ts), with a limit fit for a one-field body
  const json = readJson(new Uint8Array(await req.arrayBuffer()), { maxBytes: 4096 });
  const body = ControlBody.safeParse(json.ok ? json.value : null);
  if (!body.success) return Response.json({ ok: false, message: 'body must be {"action": "pause" | "resume" | "cancel"}' }, { status: 400 });
  const result = await controlRunAs(actor, id, body.data.action);
  const status = result.ok ? 200 : result.status === 'missing' ? 404 : 409;
  return Response.json(result, { status });
}
