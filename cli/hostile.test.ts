import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAMILIES, baseCard, baseObservations, baseSpec, deepJson, hostileCases, type HostileCase } from '../lib/testing/hostile-inputs';
import { readJson } from '../lib/schema/input';
import { parseCardBytes, parseObservationsBytes, parseSpecBytes, parseSpecValue } from '../lib/experiments/parse';
import { TEMPLATES } from '../lib/templates';
import { runTclab } from './main';
import { escapeControl } from './output';

// Every generated hostile input through the parse function and the CLI commands that need no
// database (in-process: lint, plan, compare), each refused with the expected field named, exit code 2,
// one line per issue and no stack trace. The database doors (run, the import form) are cli/hostile.itest.ts.

const cases = hostileCases();
const dir = mkdtempSync(path.join(tmpdir(), 'tclab-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Uint8Array | string) => {
  const f = path.join(dir, name);
  writeFileSync(f, bytes);
  return f;
};
const validCard = file('card.json', JSON.stringify(baseCard()));
const validObs = file('observations.json', JSON.stringify(baseObservations()));

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runTclab(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const parseOf = (c: HostileCase) => (c.kind === 'spec' ? parseSpecBytes : c.kind === 'card' ? parseCardBytes : parseObservationsBytes)(c.bytes);
const escaped = (s: string) => escapeControl(s);

/** The door refused with the field named: an issue (or a printed line) at the expected path with the expected words. */
function names(c: HostileCase, lines: string[]): boolean {
  return lines.some((l) => l.includes(escaped(c.expect.path)) && l.includes(escaped(c.expect.message)));
}

function assertCliRefusal(c: HostileCase, f: string, r: { code: number; stdout: string; stderr: string }) {
  expect(r.code, c.name).toBe(2);
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines.length, c.name).toBeGreaterThan(0);
  for (const l of lines) expect(l.startsWith(`tclab: ${f}: `), `${c.name}: ${l.slice(0, 200)}`).toBe(true);
  expect(names(c, lines), `${c.name}: ${r.stderr.slice(0, 300)}`).toBe(true);
  expect(r.stderr).not.toMatch(/^\s+at /m); // no stack trace
  expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/); // nothing a terminal would obey
  expect(r.stdout).toBe('');
}

describe('the hostile-input generator', () => {
  it('writes at least 150 malformed inputs covering every family, and specs, cards and observation files', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    for (const f of FAMILIES) expect(cases.filter((c) => c.kind === 'spec' && c.family === f).length, f).toBeGreaterThan(0);
    for (const k of ['spec', 'card', 'observations'] as const) expect(cases.filter((c) => c.kind === k).length, k).toBeGreaterThanOrEqual(k === 'spec' ? 120 : 8);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it('mutates valid inputs: the bases themselves pass every check', () => {
    expect(parseSpecBytes(JSON.stringify(baseSpec()))).toMatchObject({ ok: true });
    expect(parseCardBytes(JSON.stringify(baseCard()))).toMatchObject({ ok: true });
    expect(parseObservationsBytes(JSON.stringify(baseObservations()))).toMatchObject({ ok: true });
  });
});

describe('door: the parse function (lib/experiments/parse.ts)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = parseOf(c);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(
      names(
        c,
        r.issues.map((i) => `${i.path}: ${i.message}`),
      ),
      JSON.stringify(r.issues).slice(0, 400),
    ).toBe(true);
    // one line per issue, each with its path
    for (const i of r.issues) expect(`${i.path}: ${i.message}`).not.toContain('\n');
  });
});

describe('door: the CLI in-process (tclab lint, tclab plan, tclab compare)', () => {
  const specs = cases.filter((c) => c.kind === 'spec');
  it.each(specs.map((c, i) => [c.name, c, i] as const))(
    'lint and plan refuse %s with the issues the parse gives',
    async (_name, c, i) => {
      const f = file(`spec-${i}.json`, c.bytes);
      const parsed = parseOf(c);
      // lint also reads tool files (anything without a `format`): a JSON value that is no object is one of those
      const json = readJson(c.bytes);
      const asSpec = !json.ok || (typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) && 'format' in json.value);
      for (const cmd of asSpec ? ['lint', 'plan'] : ['plan']) {
        const r = await cli(cmd, f);
        assertCliRefusal(c, f, r);
        // the same verdict as the parse function: one printed line per issue
        if (!parsed.ok) expect(r.stderr.split('\n').filter(Boolean).length, c.name).toBe(parsed.issues.length);
      }
    },
    30_000,
  );

  const others = cases.filter((c) => c.kind !== 'spec');
  it.each(others.map((c, i) => [c.name, c, i] as const))(
    'compare refuses %s, naming the file and the field',
    async (_name, c, i) => {
      const f = file(`${c.kind}-${i}.json`, c.bytes);
      const r = c.kind === 'card' ? await cli('compare', f, validObs) : await cli('compare', validCard, f);
      assertCliRefusal(c, f, r);
    },
    30_000,
  );

  it('accepts a UTF-8 byte-order mark at every door alike', async () => {
    const bom = (s: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(s)]);
    const spec = file('bom-spec.json', bom(JSON.stringify(baseSpec())));
    expect(parseSpecBytes(bom(JSON.stringify(baseSpec()))).ok).toBe(true);
    expect(parseSpecBytes(`\uFEFF${JSON.stringify(baseSpec())}`).ok).toBe(true); // pasted
    expect((await cli('plan', spec)).code).toBe(0);
    expect([0, 1]).toContain((await cli('lint', spec)).code);
    const card = file('bom-card.json', bom(JSON.stringify(baseCard())));
    const obs = file('bom-obs.json', bom(JSON.stringify(baseObservations())));
    expect((await cli('compare', card, obs)).code).toBe(0);
  });
});

describe('no prototype lookups', () => {
  const ids = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

  it('tclab compare reports untested for a check with no observation, whatever its id', async () => {
    const card = { ...baseCard(), checks: ids.map((id) => ({ id, axis: 'task_fit', expected: { decision: 'read' } })) };
    const c = file('proto-card.json', JSON.stringify(card));
    const o = file('proto-obs.json', '{}');
    const r = await cli('compare', c, o, '--json');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as { checks: { id: string; status: string }[]; summary: Record<string, number> };
    expect(json.checks.map((k) => [k.id, k.status])).toEqual(ids.map((id) => [id, 'untested']));
    expect(json.summary).toEqual({ pass: 0, fail: 0, untested: 4 });
    // and an observation under such an id is that check's, and only that check's
    const one = file('proto-obs-1.json', '{"__proto__": {"decision": "read"}, "constructor": {"decision": "write"}}');
    const r1 = JSON.parse((await cli('compare', c, one, '--json')).stdout) as typeof json;
    expect(r1.checks.map((k) => [k.id, k.status])).toEqual([
      ['constructor', 'fail'],
      ['toString', 'untested'],
      ['__proto__', 'pass'],
      ['hasOwnProperty', 'untested'],
    ]);
  });
});

describe('the built-in templates', () => {
  it.each(Object.values(TEMPLATES).map((t) => [t.id, t] as const))('%s validates through the one parse', (_id, t) => {
    const r = parseSpecValue(JSON.parse(JSON.stringify(t.build())));
    expect(r.ok ? [] : r.issues).toEqual([]);
  });
});

describe('CLI output', () => {
  it('escapes control characters, bidirectional overrides and lone surrogates; keeps tab, newline and text', () => {
    expect(escapeControl('a\u001b[31mb\u0007\u009b\u202e\ud800\tc\nd é 中')).toBe('a\\u001b[31mb\\u0007\\u009b\\u202e\\ud800\tc\nd é 中');
    // JSON stays JSON: an escaped C1 inside a string is the same character
    expect(JSON.parse(escapeControl(JSON.stringify({ s: 'x\u009by' })))).toEqual({ s: 'x\u009by' });
  });
});

describe('door: tclab bfcl import (question files, JSON lines)', () => {
  const question = (over: Record<string, unknown> = {}) => ({
    id: 'simple_python_0',
    question: [[{ role: 'user', content: 'Area of a triangle, base 10, height 5.' }]],
    function: [{ name: 'area', description: 'Area of a triangle.', parameters: { type: 'dict', properties: { base: { type: 'integer' } }, required: ['base'] } }],
    ...over,
  });
  const answers = file('possible.json', `${JSON.stringify({ id: 'simple_python_0', ground_truth: [{ area: { base: [10] } }] })}\n`);
  const lines: [string, string, string][] = [
    ['not JSON', '{"id": "simple_python_0",', 'not valid JSON'],
    [
      'a NUL in a description',
      JSON.stringify(question({ function: [{ name: 'area', description: 'a\u0000b', parameters: { type: 'dict', properties: {} } }] })),
      'NUL character',
    ],
    ['a lone surrogate in the question', JSON.stringify(question({ question: [[{ role: 'user', content: '\udfff' }]] })), 'lone surrogate'],
    ['10,000-deep parameters', JSON.stringify(question()).replace('{"base":{"type":"integer"}}', deepJson(10_000)), 'deeper than the limit of 64 levels'],
  ];
  it.each(lines)('refuses a question line with %s (exit 2, the line named)', async (_n, line, message) => {
    const q = file(`bfcl-${message.replace(/\W+/g, '-')}.json`, `${line}\n`);
    const r = await cli('bfcl', 'import', '--questions', q, '--answers', answers, '--out', path.join(dir, 'out.json'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`tclab: ${q}:1:`);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
  it('imports the same file once it is well-formed', async () => {
    const q = file('bfcl-ok.json', `${JSON.stringify(question())}\n`);
    expect((await cli('bfcl', 'import', '--questions', q, '--answers', answers, '--out', path.join(dir, 'out.json'))).code).toBe(0);
  });
});
