import { z } from 'zod';
import { controlRun } from '@/lib/runner/control';

export const dynamic = 'force-dynamic';

const ControlBody = z.object({ action: z.enum(['pause', 'resume', 'cancel']) });

/** POST {action: pause | resume | cancel} → {ok, status, message}; 409 when the run's status does not allow it. */
export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  const body = ControlBody.safeParse(await req.json().catch(() => null));
  if (!body.success) return Response.json({ ok: false, message: 'body must be {"action": "pause" | "resume" | "cancel"}' }, { status: 400 });
  const result = await controlRun(id, body.data.action);
  const status = result.ok ? 200 : result.status === 'missing' ? 404 : 409;
  return Response.json(result, { status });
}
