import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { getRun, runProgress } from '@/lib/runs/read';
import type { RunLiveState } from '@/components/runs/live';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id } = ids;
  const run = await getRun(id);
  if (!run) return Response.json({ error: `no run "${id}"` }, { status: 404 });
  const body: RunLiveState = { status: run.status, statusReason: run.statusReason, progress: await runProgress(id) };
  return Response.json(body, { headers: { 'cache-control': 'no-store' } });
}
