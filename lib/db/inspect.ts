import pg from 'pg';

// Read-only looks into a named database from outside the app (the end-to-end tests' accounts server).

async function withClient<T>(databaseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The number of rows of every table, but those named in `skip`. */
export function tableRowCounts(databaseUrl: string, skip: ReadonlySet<string>): Promise<Record<string, number>> {
  return withClient(databaseUrl, async (c) => {
    const tables = await c.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
    const out: Record<string, number> = {};
    for (const { tablename } of tables.rows) {
      if (skip.has(tablename)) continue;
      out[tablename] = (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${tablename.replace(/"/g, '""')}"`)).rows[0].n;
    }
    return out;
  });
}

export function runTrialConditions(databaseUrl: string, runId: string): Promise<{ id: string; condition: string }[]> {
  return withClient(
    databaseUrl,
    async (c) => (await c.query<{ id: string; condition: string }>(`SELECT id, condition FROM trials WHERE run_id = $1 ORDER BY pair_key, condition`, [runId])).rows,
  );
}
