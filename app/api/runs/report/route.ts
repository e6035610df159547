import { notFoundResponse } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { isUrlId } from '@/lib/url-id';
import { RunNotFoundError } from '@/lib/runs/export';
import { ReportInputError, runReport } from '@/lib/runs/report';

export const dynamic = 'force-dynamic';

/** GET /api/runs/report?ids=A[,B…][&override=AUDIT_ID] — the one-file HTML report of a run or of runs side by side (docs/report.md), as an attachment. */
export async function GET(req: Request): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const params = new URL(req.url).searchParams;
  const override = params.get('override');
  const ids = (params.get('ids') ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!ids.every(isUrlId)) return notFoundResponse();
  let html: string;
  try {
    html = await runReport(ids, new Date(), override);
  } catch (e) {
    if (e instanceof RunNotFoundError) return Response.json({ error: e.message }, { status: 404 });
    if (e instanceof ReportInputError) return Response.json({ error: `ids: ${e.message}` }, { status: 400 });
    throw e;
  }
  const name = ids.length === 1 ? `report-${ids[0]}.html` : `report-${ids.length}-runs.html`;
  return new Response(html, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
