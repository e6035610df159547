import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { Readable } from 'node:stream';
import { DOWNLOAD_FORMATS, exportFileName, ExportSession, loadRunForExport, RunNotFoundError } from '@/lib/runs/export';

export const dynamic = 'force-dynamic';

/** GET /api/runs/[id]/export/<format> — a download format of lib/runs/export.ts EXPORT_FORMATS (json, trials.csv, checks.csv, choices.csv, parquet.zip, table1.md, table1.tex), streamed as an attachment. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string; kind: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id, kind } = ids;
  const format = DOWNLOAD_FORMATS.find((f) => f.name === kind);
  if (!format) return Response.json({ error: `unknown export "${kind}" (${DOWNLOAD_FORMATS.map((f) => f.name).join(', ')})` }, { status: 404 });
  let stream: Readable;
  try {
    stream = await format.stream(new ExportSession(await loadRunForExport(id)));
  } catch (e) {
    if (e instanceof RunNotFoundError) return Response.json({ error: e.message }, { status: 404 });
    throw e;
  }
  return new Response(pullStream(stream), {
    headers: { 'content-type': format.contentType, 'content-disposition': `attachment; filename="${exportFileName(id, format)}"`, 'cache-control': 'no-store' },
  });
}

/**
 * The export as a web stream that reads the next chunk only when the response asks for one (pull), so the
 * document is produced as fast as the client takes it and never queues up in the server's memory; a
 * client that goes away cancels it, which ends the database cursor.
 */
function pullStream(stream: Readable): ReadableStream<Uint8Array> {
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      // about 64 KB per chunk (a CSV stream gives one row at a time): a web stream's chunk costs more than a row
      async pull(controller) {
        const parts: Uint8Array[] = [];
        let size = 0;
        while (size < 64 * 1024) {
          const { value, done } = await it.next();
          if (done) break;
          const bytes = typeof value === 'string' ? encoder.encode(value) : value;
          parts.push(bytes);
          size += bytes.byteLength;
        }
        if (parts.length) controller.enqueue(parts.length === 1 ? parts[0] : Buffer.concat(parts));
        if (size < 64 * 1024) controller.close();
      },
      async cancel() {
        stream.destroy();
        await it.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}
