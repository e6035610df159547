import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { z } from 'zod';
import { trialTcc } from '@/lib/runs/export';
import { tccFileNames } from '@/lib/export/tcc';
import { redactSecrets } from '@/lib/providers/secrets';

export const dynamic = 'force-dynamic';

const Query = z.object({ part: z.enum(['card', 'observations']) });

/** GET /api/runs/[id]/trials/[trialId]/tcc?part=card|observations — the trial as TCC v0.1 files. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string; trialId: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id, trialId } = ids;
  const q = Query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) return Response.json({ error: 'part: card or observations' }, { status: 400 });
  const tcc = await trialTcc(id, trialId);
  if (!tcc || !tcc.card) return Response.json({ error: `no trial "${trialId}" in run "${id}"` }, { status: 404 });
  const names = tccFileNames(trialId);
  const body = JSON.stringify(redactSecrets(q.data.part === 'card' ? tcc.card : tcc.observations), null, 2);
  return new Response(`${body}\n`, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${names[q.data.part]}"`, 'cache-control': 'no-store' },
  });
}
