import { readFileSync } from 'node:fs';
import { describe, expect, it, afterAll } from 'vitest';
import { pool, closeDb } from './client';

// Prisma's migrate cannot run on our machines, so migrations are hand-written SQL. This keeps them and
// prisma/schema.prisma from drifting: every scalar field is a column of the right type and nullability,
// and every @@unique / @@id / @id is backed by a unique index on the same columns.

const PG_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

interface Field {
  column: string;
  type: string;
  optional: boolean;
}
interface Model {
  table: string;
  fields: Field[];
  uniques: string[][];
}

function parseSchema(text: string): Model[] {
  const models: Model[] = [];
  for (const m of text.matchAll(/model\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const body = m[2];
    const table = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1];
    const fields: Field[] = [];
    const byName = new Map<string, string>();
    const uniques: string[][] = [];
    for (const line of body.split('\n').map((l) => l.trim())) {
      const f = /^(\w+)\s+(\w+)(\??)(\[\])?\s*(.*)$/.exec(line);
      if (!f || line.startsWith('@@') || line.startsWith('//')) continue;
      const [, name, type, q, list, attrs] = f;
      if (!PG_TYPES[type] || list) continue; // relation field
      const column = /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? name;
      byName.set(name, column);
      const pgType =
        type === 'Json' && /@db\.Json\b/.test(attrs) ? 'json' : type === 'DateTime' && /@db\.Timestamptz\b/.test(attrs) ? 'timestamp with time zone' : PG_TYPES[type];
      fields.push({ column, type: pgType, optional: q === '?' });
      if (/@id\b|@unique\b/.test(attrs)) uniques.push([column]);
    }
    for (const u of body.matchAll(/@@(?:unique|id)\(\[([^\]]+)\]/g)) uniques.push(u[1].split(',').map((s) => byName.get(s.trim()) ?? s.trim()));
    models.push({ table, fields, uniques });
  }
  return models;
}

afterAll(closeDb);

describe('migrations match prisma/schema.prisma', () => {
  const models = parseSchema(readFileSync('prisma/schema.prisma', 'utf8'));

  it('parses every model', () => {
    expect(models.map((m) => m.table).sort()).toEqual([
      'accounts',
      'attempts',
      'audit_events',
      'auth_secret',
      'experiment_drafts',
      'experiments',
      'holders',
      'observations',
      'optimisations',
      'price_tables',
      'provider_batch_items',
      'provider_batches',
      'rate_limits',
      'result_cache',
      'review_assignments',
      'review_pairs',
      'reviews',
      'runs',
      'sessions',
      'stored_export_chunks',
      'stored_exports',
      'tool_catalogs',
      'tool_snapshots',
      'trace_candidates',
      'trace_imports',
      'trials',
      'turns',
      'users',
      'verdicts',
      'verifications',
    ]);
  });

  it('has every column with its type and nullability, and nothing else', async () => {
    const r = await pool().query<{ table_name: string; column_name: string; data_type: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    for (const m of models) {
      const cols = r.rows.filter((c) => c.table_name === m.table);
      expect(cols.map((c) => c.column_name).sort(), m.table).toEqual(m.fields.map((f) => f.column).sort());
      for (const f of m.fields) {
        const c = cols.find((x) => x.column_name === f.column)!;
        expect({ col: `${m.table}.${f.column}`, type: c.data_type, nullable: c.is_nullable === 'YES' }).toEqual({
          col: `${m.table}.${f.column}`,
          type: f.type,
          nullable: f.optional,
        });
      }
    }
  });

  it('backs every unique key with a unique index', async () => {
    const r = await pool().query<{ table: string; cols: string[] }>(
      `SELECT t.relname AS table, array_agg(a.attname::text ORDER BY k.ord) AS cols
         FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
         JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE i.indisunique GROUP BY i.indexrelid, t.relname`,
    );
    for (const m of models)
      for (const u of m.uniques)
        expect(
          r.rows.some((x) => x.table === m.table && x.cols.join(',') === u.join(',')),
          `${m.table}(${u.join(', ')})`,
        ).toBe(true);
  });
});
