// `npx tsx scripts/bench-catalogs.ts` (a script, not a test): bytes per attempt on disk of a request stored whole
// and split (its tool catalog kept once, lib/db/catalogs.ts), with 3 and 128 tools: 2,000 OpenAI-shaped
// requests in each of two tables of a database of its own, pg_total_relation_size / rows after VACUUM.
// Prints one JSON line per catalog size (docs/benchmarks.md › Catalogs stored once).
import { randomBytes } from 'node:crypto';
import { benchSpec } from '../lib/testing/bench-spec';
import { dropDatabase, ensureDatabase } from '../lib/db/migrate';
import { resetEnvCache } from '../lib/env';
import { splitCatalog } from '../lib/db/catalogs';
import { pool, closeDb } from '../lib/db/client';
const N = 2000;
const db = new URL(process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres');
db.pathname = `/tclab_bench_catalogs_${process.pid}_${randomBytes(2).toString('hex')}`;
process.env.DATABASE_URL = db.toString();
resetEnvCache();
await ensureDatabase(process.env.DATABASE_URL);
try {
  for (const tools of [3, 128]) {
    const spec = benchSpec(4, { tools }) as unknown as {
      studies: { conditions: { tools: { shop: { en: { name: string; description: string; parameters: unknown }[] } } }[] }[];
    };
    const defs = spec.studies[0].conditions[1].tools.shop.en.slice(0, tools);
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
      `DROP TABLE IF EXISTS m_before, m_after, m_cat; CREATE TABLE m_before (request json); CREATE TABLE m_after (request json, catalog_ref text, catalog_at int); CREATE TABLE m_cat (ref text primary key, body text)`,
    );
    const whole = Array.from({ length: N }, (_, i) => body(i));
    const split = whole.map(splitCatalog);
    await p.query(`INSERT INTO m_before SELECT unnest($1::text[])::json`, [whole]);
    await p.query(`INSERT INTO m_after SELECT r::json, c, a FROM unnest($1::text[], $2::text[], $3::int[]) AS u(r, c, a)`, [
      split.map((s) => s.request),
      split.map((s) => s.catalog?.ref ?? null),
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
     (SELECT avg(pg_column_size(request)) FROM m_before) AS colb, (SELECT avg(pg_column_size(request)) + avg(pg_column_size(catalog_ref)) + 4 FROM m_after) AS cola, (SELECT sum(pg_column_size(body)) FROM m_cat) AS catbytes`)
    ).rows[0];
    console.log(
      JSON.stringify({
        tools,
        requestChars: whole[0].length,
        rows: N,
        beforeTableBytesPerAttempt: Math.round(r.b / N),
        afterTableBytesPerAttempt: Math.round(r.a / N),
        catalogTableBytes: Number(r.c),
        beforeColumnBytes: Math.round(r.colb),
        afterColumnBytes: Math.round(r.cola),
        catalogBytes: Number(r.catbytes),
      }),
    );
    await p.query(`DROP TABLE m_before, m_after, m_cat`);
  }
} finally {
  await closeDb();
  await dropDatabase(process.env.DATABASE_URL);
}
