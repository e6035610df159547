import { notFoundResponse, routeParams } from '@/app/_ids';
import { routeActor } from '@/app/_auth/guard';
import { Readable } from 'node:stream';
import { checksCsvStream, choicesCsvStream, runJsonStream, trialsCsvStream, RunNotFoundError } from '@/lib/export/run';
import { table1Stream } from '@/lib/export/table1';

export const dynamic = 'force-dynamic';

const KINDS = {
  json: { stream: runJsonStream, type: 'application/json; charset=utf-8', file: (id: string) => `run-${id}.json` },
  'trials.csv': { stream: trialsCsvStream, type: 'text/csv; charset=utf-8', file: (id: string) => `run-${id}-trials.csv` },
  'checks.csv': { stream: checksCsvStream, type: 'text/csv; charset=utf-8', file: (id: string) => `run-${id}-checks.csv` },
  'choices.csv': { stream: choicesCsvStream, type: 'text/csv; charset=utf-8', file: (id: string) => `run-${id}-choices.csv` },
  'table1.md': { stream: table1Stream('md'), type: 'text/markdown; charset=utf-8', file: (id: string) => `run-${id}-table1.md` },
  'table1.tex': { stream: table1Stream('tex'), type: 'application/x-tex; charset=utf-8', file: (id: string) => `run-${id}-table1.tex` },
} as const;

function isKind(k: string): k is keyof typeof KINDS {
  return Object.prototype.hasOwnProperty.call(KINDS, k);
}

/** GET /api/runs/[id]/export/json | trials.csv | checks.csv | choices.csv | table1.md | table1.tex — streamed as an attachment. */
export async function GET(req: Request, { params }: { params: Promise<{ id: string; kind: string }> }): Promise<Response> {
  const { denied } = await routeActor(req, 'read');
  if (denied) return denied;
  const ids = await routeParams(params);
  if (!ids) return notFoundResponse();
  const { id, kind } = ids;
  if (!isKind(kind)) return Response.json({ error: `unknown export "${kind}" (json, trials.csv, checks.csv, choices.csv, table1.md, table1.tex)` }, { status: 404 });
  const k = KINDS[kind];
  let stream: Readable;
  try {
    stream = await k.stream(id);
  } catch (e) {
    if (e instanceof RunNotFoundError) return Response.json({ error: e.message }, { status: 404 });
    throw e;
  }
  return new Response(pullStream(stream), {
    headers: { 'content-type': k.type, 'content-disposition': `attachment; filename="${k.file(id)}"`, 'cache-control': 'no-store' },
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
