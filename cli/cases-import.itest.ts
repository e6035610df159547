import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../lib/db/client';
import { runCli } from '../lib/testing/engine';
import { startLoopbackServer, type LoopbackServer } from '../lib/testing/loopback-server';
import { recordingFetch, TRACE_SYSTEM, TRACE_TOOLS, type ExchangeLine } from '../lib/testing/trace-traffic';

// `tclab cases import`: a request/response log the openai SDK wrote against the loopback server, with a seeded
// set of secrets and personal data planted in what the user typed, the system prompt and the model's call.
// None of them is in the database or in the command's output afterwards; the report counts what was
// redacted; a file that is not the format fails naming the line and stores nothing.

function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plant(seed: number) {
  const rnd = seeded(seed);
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join('');
  const alnum = (n: number) => Array.from({ length: n }, () => 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'[Math.floor(rnd() * 56)]).join('');
  // A card number that passes the Luhn check: 15 random digits and the check digit.
  const body = '4' + digits(14);
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  const card = body + String((10 - (sum % 10)) % 10);
  return {
    email: `${alnum(8).toLowerCase()}@${alnum(6).toLowerCase()}.example.org`,
    phone: `+44 20 ${digits(4)} ${digits(4)}`,
    card: `${card.slice(0, 4)} ${card.slice(4, 8)} ${card.slice(8, 12)} ${card.slice(12)}`,
    apiKey: `sk-proj-${alnum(32)}`,
    bearer: alnum(40),
    account: `ACCT-${digits(6)}`,
  };
}

let server: LoopbackServer;
let dir: string;
// Two requests apart from their secrets (after redaction, the same words would be duplicates).
const secrets = [plant(11), plant(12)];
const asks = ['Book dinner in Lyon tonight', 'We need a lunch spot near the Paris Opera for a team of nine next Tuesday'];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-cases-'));
  server = await startLoopbackServer({
    script: (req) => {
      const s = secrets.find((x) => req.raw.includes(x.account)) ?? secrets[0];
      return { kind: 'toolCalls', calls: [{ id: 'call_1', name: 'search_restaurants', arguments: { city: 'Lyon', contact: s.email } }] };
    },
  });
});

afterAll(async () => {
  await server.close();
  await closeDb();
  await rm(dir, { recursive: true, force: true });
});

async function counts() {
  const r = await pool().query<{ imports: number; candidates: number; audits: number }>(
    `SELECT (SELECT count(*)::int FROM trace_imports) AS imports, (SELECT count(*)::int FROM trace_candidates) AS candidates,
            (SELECT count(*)::int FROM audit_events) AS audits`,
  );
  return r.rows[0];
}

describe('tclab cases import', () => {
  it('stores redacted candidates only: no planted secret is in the database or the output, and the report counts them', async () => {
    const log: ExchangeLine[] = [];
    const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0, fetch: recordingFetch(log) });
    for (const [i, s] of [secrets[0], secrets[1], secrets[0]].entries()) {
      await client.chat.completions.create({
        model: 'gpt-loopback',
        messages: [
          { role: 'system', content: `${TRACE_SYSTEM} Use key ${s.apiKey} with Authorization: Bearer ${s.bearer}.` },
          { role: 'user', content: `${asks[i % 2]} for ${s.email}, phone ${s.phone}, card ${s.card}, account ${s.account}.` },
        ],
        tools: TRACE_TOOLS,
      });
    }
    const file = path.join(dir, 'openai.jsonl');
    await writeFile(file, log.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const before = await counts();

    const r = await runCli(['cases', 'import', 'openai-log', file, '--redact', 'ACCT-\\d{6}', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { importId, report } = JSON.parse(r.stdout) as {
      importId: string;
      report: Record<string, unknown> & { redactions: { byKind: Record<string, number>; byPattern: Record<string, number> } };
    };
    expect(report).toMatchObject({ read: 3, imported: 2, duplicate: 1 });
    // Per stored candidate: key, bearer token, card, phone, account once; e-mail twice (the user's text and the call's argument).
    expect(report.redactions.byKind).toEqual({ 'api-key': 3, 'bearer-token': 3, email: 6, 'card-number': 3, phone: 3, custom: 3 });
    expect(report.redactions.byPattern).toEqual({ 'ACCT-\\d{6}': 3 });
    const after = await counts();
    expect(after).toEqual({ imports: before.imports + 1, candidates: before.candidates + 2, audits: before.audits + 1 });

    const dump = await pool().query<{ t: string }>(
      `SELECT row_to_json(i)::text AS t FROM trace_imports i UNION ALL SELECT row_to_json(c)::text FROM trace_candidates c UNION ALL SELECT row_to_json(a)::text FROM audit_events a`,
    );
    const everything = dump.rows.map((x) => x.t).join('\n') + r.stdout + r.stderr;
    expect(everything).toContain(importId);
    expect(everything).toContain('[redacted:email]');
    for (const s of secrets) for (const value of Object.values(s)) expect(everything.includes(value), value).toBe(false);
    // The card and phone without their spaces, too.
    for (const s of secrets) expect(everything.includes(s.card.replace(/ /g, ''))).toBe(false);

    const text = await runCli(['cases', 'import', 'openai-log', file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/3 records read/);
    expect(text.stdout).toMatch(/redacted  api-key 3, bearer-token 3, email 6, card-number 3, phone 3/);
  });

  it('a file that is not the format fails naming the line, and stores nothing', async () => {
    const file = path.join(dir, 'not-a-log.jsonl');
    await writeFile(file, 'this is not json\n{"no": "request"}\n');
    const before = await counts();
    const r = await runCli(['cases', 'import', 'openai-log', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 1: not JSON');
    expect(await counts()).toEqual(before);

    const bad = await runCli(['cases', 'import', 'openai-log', file, '--redact', '(unclosed']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--redact "(unclosed" is not a valid regular expression');
    const unknown = await runCli(['cases', 'import', 'otlp', file, '--experiment-id', 'no-such-experiment']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('experiment-id: no experiment "no-such-experiment"');
    const format = await runCli(['cases', 'import', 'csv', file]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('format: expected one of otlp, openinference, openllmetry, openai-log, anthropic-log, gemini-log');
    expect(await counts()).toEqual(before);
  });
});
