import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { getExperiment } from '@/lib/experiments/read';
import { listOptimisations } from '@/lib/optimise/read';

export const dynamic = 'force-dynamic';

/**
 * An experiment's optimisation records as stored (docs/optimise.md "The loop, stored"), newest first; with
 * `?record=ID` that record alone. A download: what the Improve descriptions page shows, as JSON.
 */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const exp = await getExperiment(ids.id);
  if (!exp) return Response.json({ error: `no experiment "${ids.id}"` }, { status: 404 });
  const record = new URL(req.url).searchParams.get('record');
  const all = await listOptimisations(exp.id);
  const chosen = record === null ? all : all.filter((r) => r.id === record);
  if (record !== null && chosen.length === 0) return Response.json({ error: `no optimisation "${record}" of ${exp.id}` }, { status: 404 });
  const body = record === null ? { experimentId: exp.id, optimisations: chosen } : chosen[0];
  const name = record === null ? `optimisations-${exp.id}.json` : `optimisation-${record}.json`;
  return new Response(`${JSON.stringify(body, null, 2)}\n`, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
  });
}
