import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { getRun, trialPage } from '@/lib/runs/read';
import { TrialPageQuery } from '@/lib/schema/trial-page';

export const dynamic = 'force-dynamic';

/** One page of a run's trials: ?page&size&sort&dir and filters study, condition, status, scenario, locale. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id } = ids;
  const q = TrialPageQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) return Response.json({ error: q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') }, { status: 400 });
  if (!(await getRun(id))) return Response.json({ error: `no run "${id}"` }, { status: 404 });
  return Response.json(await trialPage(id, q.data), { headers: { 'cache-control': 'no-store' } });
}
