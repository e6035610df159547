import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { getExperiment } from '@/lib/experiments/read';
import { listOptimisations } from '@/lib/optimise/read';
import { TAKE_HOME_FORMATS, takeHome, type TakeHomeFormat } from '@/lib/optimise/take-home';
import { recordMarkdown } from '@/lib/optimise/markdown';
import { recordLatex } from '@/lib/optimise/latex';

export const dynamic = 'force-dynamic';

/**
 * An experiment's optimisation records as stored (docs/optimise.md "The loop, stored"), newest first; with
 * `?record=ID` that record alone. A download: what the Improve descriptions page shows, as JSON. With
 * `&definitions=mcp|openai` (and `&candidate=C`), the winner's (or that candidate's) tool definitions as a file;
 * with `&format=md` or `&format=tex`, the record as Markdown or as LaTeX tables.
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
  const definitions = new URL(req.url).searchParams.get('definitions');
  if (definitions !== null) {
    if (record === null || !(TAKE_HOME_FORMATS as readonly string[]).includes(definitions))
      return Response.json({ error: `definitions: ${TAKE_HOME_FORMATS.join(' or ')}, with record=ID` }, { status: 400 });
    const taken = await takeHome(chosen[0], definitions as TakeHomeFormat, new URL(req.url).searchParams.get('candidate'));
    if ('error' in taken) return Response.json({ error: taken.error }, { status: 404 });
    return new Response(`${JSON.stringify(taken.file, null, 2)}\n`, {
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${taken.condition}-${definitions}-tools.json"` },
    });
  }
  const format = new URL(req.url).searchParams.get('format');
  if (format === 'md' || format === 'tex') {
    if (record === null) return Response.json({ error: `format=${format}: with record=ID` }, { status: 400 });
    const [text, type] = format === 'md' ? [recordMarkdown(chosen[0]), 'text/markdown'] : [recordLatex(chosen[0]), 'application/x-tex'];
    return new Response(text, {
      headers: { 'content-type': `${type}; charset=utf-8`, 'content-disposition': `attachment; filename="optimisation-${record}.${format}"` },
    });
  }
  if (format !== null) return Response.json({ error: `format: md or tex (got "${format.slice(0, 20)}")` }, { status: 400 });
  const body = record === null ? { experimentId: exp.id, optimisations: chosen } : chosen[0];
  const name = record === null ? `optimisations-${exp.id}.json` : `optimisation-${record}.json`;
  return new Response(`${JSON.stringify(body, null, 2)}\n`, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` },
  });
}
