import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { parquetStream, type ParquetColumn } from './parquet';

// The Parquet writer read back by an independent reader (DuckDB): types, nulls, row groups, text as written.

const dir = mkdtempSync(path.join(tmpdir(), 'tclab-parquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every byte of a stream (node:stream/consumers). */
const bytes = async (s: Readable | Promise<Readable>): Promise<Buffer> => buffer(await s);

async function query(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql.replaceAll('$FILE', `'${file}'`))).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

interface Row {
  id: string;
  n: number | null;
  ok: boolean | null;
  at: string | null;
  x: number | null;
}
const COLUMNS: ParquetColumn<Row>[] = [
  { name: 'id', type: 'STRING', value: (r) => r.id },
  { name: 'n', type: 'INT32', value: (r) => r.n },
  { name: 'ok', type: 'BOOLEAN', value: (r) => r.ok },
  { name: 'at', type: 'TIMESTAMP', value: (r) => r.at },
  { name: 'x', type: 'DOUBLE', value: (r) => r.x },
];

describe('parquetStream', () => {
  it('writes typed, nullable columns over several row groups that DuckDB reads back row for row', async () => {
    const rows: Row[] = Array.from({ length: 2_503 }, (_, i) => ({
      id: i === 7 ? 'nul \u0000 inside, 中文, =HYPERLINK("x")' : `t_${i}`,
      n: i % 11 === 0 ? null : i - 1000,
      ok: i % 5 === 0 ? null : i % 2 === 0,
      at: i % 13 === 0 ? null : new Date(Date.UTC(2026, 11, 4, 12, 0, 0) + i * 1000).toISOString(),
      x: i % 17 === 0 ? null : i / 4,
    }));
    async function* source() {
      yield* rows;
    }
    const file = path.join(dir, 'typed.parquet');
    writeFileSync(file, await bytes(parquetStream(source(), COLUMNS, 1_000)));

    const types = await query(file, 'SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($FILE))');
    expect(Object.fromEntries(types.map((t) => [t.column_name, t.column_type]))).toEqual({ id: 'VARCHAR', n: 'INTEGER', ok: 'BOOLEAN', at: 'TIMESTAMP', x: 'DOUBLE' });
    const groups = await query(file, 'SELECT count(DISTINCT row_group_id) AS g FROM parquet_metadata($FILE)');
    expect(Number(groups[0].g)).toBe(3);

    const got = await query(file, `SELECT id, n, ok, strftime("at", '%Y-%m-%dT%H:%M:%S.000Z') AS "at", x FROM read_parquet($FILE)`);
    expect(got).toEqual(rows);
  });

  it('gives a valid file of no rows, with its columns, for an empty source', async () => {
    const file = path.join(dir, 'empty.parquet');
    writeFileSync(file, await bytes(parquetStream([], COLUMNS)));
    expect(await query(file, 'SELECT count(*)::INTEGER AS n FROM read_parquet($FILE)')).toEqual([{ n: 0 }]);
    expect((await query(file, 'SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet($FILE))')).map((c) => c.column_name)).toEqual(['id', 'n', 'ok', 'at', 'x']);
  });

  it('holds one row group at a time: the bytes come out before the source is finished', async () => {
    let pulled = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* source() {
      for (let i = 0; i < 100; i++) {
        pulled++;
        yield { id: `t_${i}`, n: i, ok: true, at: null, x: null };
      }
      await gate; // the rest of the source waits until the first row group was read
      for (let i = 100; i < 150; i++) yield { id: `t_${i}`, n: i, ok: true, at: null, x: null };
    }
    const stream = parquetStream(source(), COLUMNS, 100);
    const it = stream[Symbol.asyncIterator]();
    const first = (await it.next()).value as Buffer;
    expect(first.subarray(0, 4).toString()).toBe('PAR1');
    expect(pulled).toBe(100);
    release();
    const rest: Buffer[] = [first];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value as Buffer);
    const file = path.join(dir, 'streamed.parquet');
    writeFileSync(file, Buffer.concat(rest));
    expect(await query(file, 'SELECT count(*)::INTEGER AS n, max(n) AS m FROM read_parquet($FILE)')).toEqual([{ n: 150, m: 149 }]);
  });
});
