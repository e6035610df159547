import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { routeActor } from '@/app/_auth/guard';
import { importTraces, TraceImportError } from '@/lib/cases/import';
import { chunkLines } from '@/lib/traces';
import { TRACE_UPLOAD_LIMIT, traceImportFromQuery } from '@/components/cases/case-forms';
import { urls } from '@/lib/urls';

export const dynamic = 'force-dynamic';

/**
 * Import a trace or log file (docs/traces.md) sent as the request's body, as the Traces page's form does: the
 * options in the query (`format`, `file` — its name —, `experimentId`, `sample`, `redact` once per pattern),
 * checked before the body is read. The body goes to a temporary file as it arrives (at disk speed: the server
 * stops waiting for a request after a while, and an import of several hundred MB takes minutes), then that file is
 * read line by line at bounded memory, as the CLI reads one, and removed (proxy.ts leaves this path alone, so
 * nothing buffers the body first). A failed import stores nothing. 201 `{importId, url}`; 400 `{issues, message}`
 * naming the field.
 */
export async function POST(req: Request): Promise<Response> {
  const { actor, denied } = await routeActor(req, 'experiment.write');
  if (denied) return denied;
  const input = traceImportFromQuery(new URL(req.url).searchParams, req.headers.get('content-length'));
  if (!input.ok || !req.body) {
    const issues = input.ok ? [{ path: 'file', message: 'choose a trace or log file (it is empty or missing)' }] : input.issues;
    return Response.json({ issues, message: 'Nothing was stored.' }, { status: 400 });
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'tclab-trace-upload-'));
  const file = path.join(dir, 'upload');
  try {
    // a body sent without its length is cut at the limit, not written to the disk whole
    let bytes = 0;
    const tooLarge = new Error('too large');
    await pipeline(
      Readable.fromWeb(req.body as unknown as WebReadableStream<Uint8Array>),
      async function* (source: AsyncIterable<Uint8Array>) {
        for await (const chunk of source) {
          bytes += chunk.byteLength;
          if (bytes > TRACE_UPLOAD_LIMIT) throw tooLarge;
          yield chunk;
        }
      },
      createWriteStream(file),
    ).catch((e: unknown) => {
      if (e !== tooLarge) throw e;
    });
    if (bytes === 0 || bytes > TRACE_UPLOAD_LIMIT) {
      const message =
        bytes === 0
          ? 'choose a trace or log file (it is empty or missing)'
          : `over ${TRACE_UPLOAD_LIMIT.toLocaleString('en-US')} bytes: larger files are imported with tclab cases import`;
      return Response.json({ issues: [{ path: 'file', message }], message: 'Nothing was stored.' }, { status: 400 });
    }
    const { importId } = await importTraces({ ...input.value, lines: chunkLines(createReadStream(file)) }, actor);
    return Response.json({ importId, url: urls.traceImport(importId) }, { status: 201 });
  } catch (e) {
    if (e instanceof TraceImportError) {
      const m = /^([\w.-]+): (.*)$/s.exec(e.message);
      return Response.json({ issues: [{ path: m ? m[1] : 'file', message: m ? m[2] : e.message }], message: 'Nothing was stored.' }, { status: 400 });
    }
    throw e;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
