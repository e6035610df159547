import { routeActor } from '@/app/_auth/guard';
import { importTraces, TraceImportError } from '@/lib/cases/import';
import { chunkLines } from '@/lib/traces';
import { traceImportFromQuery } from '@/components/cases/case-forms';
import { urls } from '@/lib/urls';

export const dynamic = 'force-dynamic';

/**
 * Import a trace or log file (docs/traces.md) sent as the request's body, as the Traces page's form does: the
 * options in the query (`format`, `file` — its name —, `experimentId`, `sample`, `redact` once per pattern).
 * The body is read as it arrives, line by line, at bounded memory (proxy.ts leaves this path alone, so nothing
 * buffers it first); a failed import stores nothing. 201 `{importId, url}`; 400 `{issues, message}` naming the field.
 */
export async function POST(req: Request): Promise<Response> {
  const { actor, denied } = await routeActor(req, 'experiment.write');
  if (denied) return denied;
  const input = traceImportFromQuery(new URL(req.url).searchParams, req.headers.get('content-length'));
  if (!input.ok || !req.body) {
    const issues = input.ok ? [{ path: 'file', message: 'choose a trace or log file (it is empty or missing)' }] : input.issues;
    return Response.json({ issues, message: 'Nothing was stored.' }, { status: 400 });
  }
  try {
    const { importId } = await importTraces({ ...input.value, lines: chunkLines(req.body as unknown as AsyncIterable<Uint8Array>) }, actor);
    return Response.json({ importId, url: urls.traceImport(importId) }, { status: 201 });
  } catch (e) {
    if (e instanceof TraceImportError) {
      const m = /^([\w.-]+): (.*)$/s.exec(e.message);
      return Response.json({ issues: [{ path: m ? m[1] : 'file', message: m ? m[2] : e.message }], message: 'Nothing was stored.' }, { status: 400 });
    }
    throw e;
  }
}
