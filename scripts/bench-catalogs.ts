// `npx tsx scripts/bench-catalogs.ts` (a script, not a test): bytes per attempt on disk of a request stored whole
// and split (its tool catalog kept once, lib/db/catalogs.ts), with benchSpec's 3 and 128 tools and 128 real MCP
// tools, on a database of its own
// (migrated), pg_total_relation_size / rows after VACUUM, 2,000 OpenAI-shaped requests each:
// - the request alone: a table of the request (whole) against one of the request split + its catalog's id and place;
// - the whole attempt: tables made `LIKE attempts INCLUDING ALL` (every column and index of the real table),
//   each row an attempt as a run stores it (ids, outcome, timings, tokens, the loopback's chat completion as the
//   response), the request whole (catalog_id NULL) or split; heap, TOAST and each index per attempt.
// Prints two JSON lines per catalog (docs/benchmarks.md › Catalogs stored once).
import { randomBytes } from 'node:crypto';
import { benchSpec } from '../lib/testing/bench-spec';
import { openaiChatCompletionBody } from '../lib/testing/wire-bodies';
import { dropDatabase, ensureDatabase, migrate } from '../lib/db/migrate';
import { resetEnvCache } from '../lib/env';
import { splitCatalog } from '../lib/db/catalogs';
import { catalogTools } from '../lib/catalogs';
import { pool, closeDb } from '../lib/db/client';
const N = Number(process.env.BENCH_CATALOG_ROWS ?? 2000);
/**
 * The bytes of a table's data: the main fork of its heap, its TOAST table and TOAST index, and its indexes. The
 * free space and visibility maps (a few pages per relation, whatever its size: 8–16 bytes per attempt at 2,000
 * rows, nothing at a run's scale) are left out.
 */
const dataBytes = (table: string) => `(SELECT sum(pg_relation_size(r, 'main')) FROM (
    SELECT '${table}'::regclass::oid AS r
    UNION ALL SELECT reltoastrelid FROM pg_class WHERE oid = '${table}'::regclass AND reltoastrelid <> 0
    UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT '${table}'::regclass::oid UNION ALL SELECT reltoastrelid FROM pg_class WHERE oid = '${table}'::regclass)) s)`;
const db = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
db.pathname = `/tclab_bench_catalogs_${process.pid}_${randomBytes(2).toString('hex')}`;
process.env.DATABASE_URL = db.toString();
resetEnvCache();
await ensureDatabase(process.env.DATABASE_URL);
await migrate(process.env.DATABASE_URL);
try {
  // benchSpec's catalog (its distractors differ only in a number, so TOAST compresses the whole request ~30:1),
  // and 128 real MCP tools as a catalog study draws them (the GitHub MCP server's 117 and the first 11 of the
  // reference servers': lib/catalogs), whose varied text compresses as a real catalog does
  const synthetic = (tools: number) =>
    (
      benchSpec(4, { tools }) as unknown as {
        studies: { conditions: { tools: { shop: { en: { name: string; description: string; parameters: unknown }[] } } }[] }[];
      }
    ).studies[0].conditions[1].tools.shop.en.slice(0, tools);
  const mcp = [...catalogTools({ builtin: 'github-mcp-server' }), ...catalogTools({ builtin: 'mcp-reference-servers' })].slice(0, 128);
  const catalogs = [
    { tools: 3, catalog: 'benchSpec', defs: synthetic(3) },
    { tools: 128, catalog: 'benchSpec', defs: synthetic(128) },
    { tools: mcp.length, catalog: 'mcp', defs: mcp },
  ];
  for (const { tools, catalog, defs } of catalogs) {
    const wire = defs.map((d) => ({ type: 'function', function: { name: d.name, description: d.description, parameters: d.parameters } }));
    const body = (i: number) =>
      JSON.stringify({
        model: 'm',
        messages: [
          { role: 'system', content: 'Use a tool, or reply CLARIFY: / STOP:.' },
          { role: 'user', content: `Where is order A-${1000 + i}?` },
        ],
        tools: wire,
        tool_choice: 'auto',
        max_completion_tokens: 256,
        temperature: 0,
      });
    const p = pool();
    await p.query(
      `DROP TABLE IF EXISTS m_before, m_after, m_cat; CREATE TABLE m_before (request json); CREATE TABLE m_after (request json, catalog_id int, catalog_at int); CREATE TABLE m_cat (ref text primary key, body text)`,
    );
    const whole = Array.from({ length: N }, (_, i) => body(i));
    const split = whole.map(splitCatalog);
    await p.query(`INSERT INTO m_before SELECT unnest($1::text[])::json`, [whole]);
    await p.query(`INSERT INTO m_after SELECT r::json, CASE WHEN a IS NULL THEN NULL ELSE 1 END, a FROM unnest($1::text[], $2::int[]) AS u(r, a)`, [
      split.map((s) => s.request),
      split.map((s) => s.catalog?.at ?? null),
    ]);
    await p.query(`INSERT INTO m_cat SELECT DISTINCT c, b FROM unnest($1::text[], $2::text[]) AS u(c, b) WHERE c IS NOT NULL`, [
      split.map((s) => s.catalog?.ref ?? null),
      split.map((s) => s.catalog?.body ?? null),
    ]);
    await p.query('VACUUM ANALYZE m_before');
    await p.query('VACUUM ANALYZE m_after');
    await p.query('VACUUM ANALYZE m_cat');
    const r = (
      await p.query(`SELECT pg_total_relation_size('m_before') AS b, pg_total_relation_size('m_after') AS a, pg_total_relation_size('m_cat') AS c,
     ${dataBytes('m_before')} AS db, ${dataBytes('m_after')} AS da,
     (SELECT avg(pg_column_size(request)) FROM m_before) AS colb, (SELECT avg(pg_column_size(request)) + 8 FROM m_after) AS cola, (SELECT sum(pg_column_size(body)) FROM m_cat) AS catbytes`)
    ).rows[0];
    console.log(
      JSON.stringify({
        tools,
        catalog,
        requestChars: whole[0].length,
        rows: N,
        beforeTableBytesPerAttempt: Math.round(r.b / N),
        afterTableBytesPerAttempt: Math.round(r.a / N),
        beforeDataBytesPerAttempt: Math.round(r.db / N),
        afterDataBytesPerAttempt: Math.round(r.da / N),
        catalogTableBytes: Number(r.c),
        beforeColumnBytes: Math.round(r.colb),
        afterColumnBytes: Math.round(r.cola),
        catalogBytes: Number(r.catbytes),
      }),
    );
    await p.query(`DROP TABLE m_before, m_after, m_cat`);

    // the whole attempt row, as a run stores it, with every index of the attempts table
    const runId = `r_${randomBytes(8).toString('hex')}`;
    const trialIds = whole.map(() => `t_${randomBytes(16).toString('hex')}`);
    const response = (i: number) =>
      JSON.stringify(
        openaiChatCompletionBody({
          id: `chatcmpl-${randomBytes(15).toString('base64url')}`,
          model: 'm',
          calls: [{ id: `call_${randomBytes(12).toString('base64url')}`, name: 'lookup_order', arguments: { order_id: `A-${1000 + i}` } }],
        }),
      );
    const responses = whole.map((_, i) => response(i));
    const rowsOf = async (table: string, requests: string[], ats: (number | null)[]) => {
      await p.query(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (LIKE attempts INCLUDING ALL)`);
      await p.query(
        `INSERT INTO ${table} (id, run_id, trial_id, n, kind, request, catalog_id, catalog_at, response, outcome, http_status, latency_ms, input_tokens, output_tokens, lease_token, turn, started_at, finished_at)
         SELECT t || '-a1', $1, t, 1, 'formal', r::json, CASE WHEN a IS NULL THEN NULL ELSE 1 END, a, s::json, 'ok', 200, 812, 1500, 12, 1, 1, now() - interval '1 second', now()
           FROM unnest($2::text[], $3::text[], $4::int[], $5::text[]) AS u(t, r, a, s)`,
        [runId, trialIds, requests, ats, responses],
      );
      await p.query(`VACUUM ANALYZE ${table}`);
      const parts = (
        await p.query<{ name: string; bytes: string }>(
          `SELECT 'heap' AS name, pg_relation_size($1::regclass, 'main') AS bytes
           UNION ALL SELECT 'toast', pg_relation_size(c.reltoastrelid, 'main') + (SELECT COALESCE(sum(pg_relation_size(i.indexrelid, 'main')), 0) FROM pg_index i WHERE i.indrelid = c.reltoastrelid)
             FROM pg_class c WHERE c.oid = $1::regclass AND c.reltoastrelid <> 0
           UNION ALL SELECT 'maps', pg_total_relation_size($1::regclass) - pg_indexes_size($1::regclass) - pg_relation_size($1::regclass, 'main')
             - (SELECT COALESCE(pg_relation_size(c.reltoastrelid, 'main') + (SELECT COALESCE(sum(pg_relation_size(i.indexrelid, 'main')), 0) FROM pg_index i WHERE i.indrelid = c.reltoastrelid), 0) FROM pg_class c WHERE c.oid = $1::regclass)
           UNION ALL SELECT i.indexrelid::regclass::text, pg_relation_size(i.indexrelid) FROM pg_index i WHERE i.indrelid = $1::regclass`,
          [table],
        )
      ).rows;
      const cols = (
        await p.query(
          `SELECT avg(pg_column_size(request)) AS request, avg(pg_column_size(response)) AS response, avg(pg_column_size(id) + pg_column_size(run_id) + pg_column_size(trial_id)) AS ids,
                  avg(pg_column_size(t.*)) AS row FROM ${table} t`,
        )
      ).rows[0];
      const per = Object.fromEntries(parts.map((x) => [x.name.replace(/^m_att_(before|after)_/, ''), Math.round(Number(x.bytes) / N)]));
      const total = Object.entries(per).reduce((a, [k, b]) => (k === 'maps' ? a : a + b), 0);
      return {
        total,
        ...per,
        rowBytes: Math.round(cols.row),
        requestColumn: Math.round(cols.request),
        responseColumn: Math.round(cols.response),
        idColumns: Math.round(cols.ids),
      };
    };
    const attemptBefore = await rowsOf(
      'm_att_before',
      whole,
      whole.map(() => null),
    );
    const attemptAfter = await rowsOf(
      'm_att_after',
      split.map((x) => x.request),
      split.map((x) => x.catalog?.at ?? null),
    );
    console.log(JSON.stringify({ tools, catalog, attemptBytesPerAttempt: { before: attemptBefore, after: attemptAfter } }));
    await p.query(`DROP TABLE m_att_before, m_att_after`);
  }
} finally {
  await closeDb();
  await dropDatabase(process.env.DATABASE_URL);
}
