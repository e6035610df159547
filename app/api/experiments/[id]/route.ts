import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { getExperiment } from '@/lib/experiments/read';

export const dynamic = 'force-dynamic';

/** The stored spec as JSON (re-importable). */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id } = ids;
  const exp = await getExperiment(id);
  if (!exp) return Response.json({ error: `no experiment "${id}"` }, { status: 404 });
  return new Response(JSON.stringify(exp.spec, null, 2), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="experiment-${exp.id}.json"` },
  });
}
