import { describe, expect, it } from 'vitest';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { CHECK_CSV_COLUMNS, checksCsv, neutralise, TRIAL_CSV_COLUMNS, trialsCsv, type TrialExportRow } from './csv';
import { fixtureTrial } from '../testing/run-export-fixture';

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += String(chunk);
  return out;
}

const records = (csv: string): Record<string, string>[] => parse(csv, { columns: true, bom: true });

describe('trialsCsv', () => {
  it('writes one row per trial with the JSON names flattened', async () => {
    const csv = await text(trialsCsv([fixtureTrial(0), fixtureTrial(1)]));
    expect(csv.split('\n')[0]).toBe(TRIAL_CSV_COLUMNS.join(','));
    const [a, b] = records(csv);
    expect(a).toMatchObject({
      id: 't_000000',
      study: 'selection',
      kind: 'selection',
      condition: 'overlapping',
      order: 'get_invoice > pay_invoice',
      replicate: '1',
      status: 'failed',
      attempts: '2',
      lastOutcome: 'ok',
      lastErrorKind: '',
      httpStatus: '200',
      latencyMs: '345',
      marker: '',
      label: '',
      text: 'Done, "quoted", comma, and\nnew line — 發票',
      verdicts: 'tool-choice=fail(unwanted_write)',
      categories: 'unwanted_write',
    });
    expect(JSON.parse(a.toolCalls)).toEqual([{ name: 'pay_invoice', arguments: { invoice_id: 'INV-7' } }]);
    expect(b).toMatchObject({ condition: 'clear', verdicts: 'tool-choice=pass', categories: '' });
  });

  it('handles no observation, no attempts and no rows', async () => {
    const [r] = records(await text(trialsCsv([fixtureTrial(0, { observation: null, attempts: [], status: 'unresolved' })])));
    expect(r).toMatchObject({ attempts: '0', lastOutcome: '', httpStatus: '', toolCalls: '', text: '' });
    expect(await text(trialsCsv([]))).toBe(`${TRIAL_CSV_COLUMNS.join(',')}\n`);
  });

  it('neutralises formula injection in model output (csv-parse round trip)', async () => {
    const hostile = ['=HYPERLINK("http://x","y")', '+1+2', '-2+3', '@SUM(A1)', '\tcmd', '\r=1', 'plain', ' =spaced'];
    const trials = hostile.map((t, i) => fixtureTrial(i, { observation: { toolCalls: [], marker: null, label: t, text: t } }));
    const rows = records(await text(trialsCsv(trials)));
    expect(rows.map((r) => r.text)).toEqual(['\'=HYPERLINK("http://x","y")', "'+1+2", "'-2+3", "'@SUM(A1)", "'\tcmd", "'\r=1", 'plain', "' =spaced"]);
    expect(rows.map((r) => r.label)).toEqual(rows.map((r) => r.text));
  });

  it('quotes every cell with a CR, LF, quote or separator; neutralises formulas behind whitespace and control characters', async () => {
    const cells = [
      'lone\rcarriage return',
      '\r=cmd|" /C calc"!A0',
      'line\nfeed',
      'crlf\r\nboth',
      'say "hi"',
      'a,b',
      ' =1+1',
      '\t\t+SUM(A1:A9)',
      '\n-2+3',
      '\u0000@SUM(A1)',
      '\u00a0=HYPERLINK("x")',
      '\u3000=1',
      '\u200b=1',
      'plain text',
      'a = b',
    ];
    const trials = cells.map((t, i) => fixtureTrial(i, { observation: { toolCalls: [], marker: null, label: null, text: t } }));
    const csv = await text(trialsCsv(trials));
    // every record is one line of the CSV except inside quotes: a lone CR never starts a new row
    expect(records(csv)).toHaveLength(cells.length);
    const rows = records(csv).map((r) => r.text);
    const formula = [1, 6, 7, 8, 9, 10, 11, 12];
    expect(rows).toEqual(cells.map((c, i) => (formula.includes(i) ? `'${c}` : c)));
    // the raw text: each such cell is quoted, whatever csv-stringify would have done by itself
    for (const [i, c] of cells.entries()) {
      if (!/[\r\n",]/.test(c)) continue;
      const quoted = `"${(formula.includes(i) ? `'${c}` : c).replaceAll('"', '""')}"`;
      expect(csv, JSON.stringify(c)).toContain(quoted);
    }
    // nothing outside quotes holds a CR
    expect(csv.replace(/"(?:[^"]|"")*"/g, '')).not.toContain('\r');
  });

  it('neutralise: formula signs after leading whitespace or controls, not inside the text', () => {
    expect(['=1', ' =1', '\r\n+1', '\u0007-1', '\t@x', '\tplain', '\rplain'].map(neutralise)).toEqual([
      "'=1",
      "' =1",
      "'\r\n+1",
      "'\u0007-1",
      "'\t@x",
      "'\tplain",
      "'\rplain",
    ]);
    expect(['1=1', 'a+b', 'x@y.z', '', '  ', ' plain'].map(neutralise)).toEqual(['1=1', 'a+b', 'x@y.z', '', '  ', ' plain']);
  });

  it('streams from an async iterable and surfaces its errors', async () => {
    async function* gen(): AsyncGenerator<TrialExportRow> {
      for (let i = 0; i < 1000; i++) yield fixtureTrial(i);
    }
    expect(records(await text(trialsCsv(gen())))).toHaveLength(1000);
    async function* failing(): AsyncGenerator<TrialExportRow> {
      yield fixtureTrial(0);
      throw new Error('cursor lost');
    }
    await expect(text(trialsCsv(failing()))).rejects.toThrow('cursor lost');
  });

  it('stops pulling rows when the reader stops', async () => {
    let pulled = 0;
    let closed!: () => void;
    const sourceClosed = new Promise<void>((resolve) => (closed = resolve));
    async function* endless(): AsyncGenerator<TrialExportRow> {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield fixtureTrial(i);
        }
      } finally {
        closed();
      }
    }
    const stream = trialsCsv(endless());
    for await (const chunk of stream) if (String(chunk).length) break;
    await sourceClosed; // the source is closed (a stream that kept pulling would never get here)
    expect(pulled).toBeLessThan(10_000);
  });

  it('writes a BOM on request', async () => {
    expect((await text(trialsCsv([], { bom: true }))).startsWith('\ufeff')).toBe(true);
  });
});

describe('checksCsv', () => {
  it('writes one row per verdict', async () => {
    const t = fixtureTrial(0, {
      verdicts: [
        {
          checkId: 'tool-choice',
          axis: 'task_fit',
          checkpoint: 'selection',
          status: 'fail',
          category: 'unwanted_write',
          reason: '-> wrote',
          review: { humanStatus: 'pass', graderStatus: 'fail', reviewer: 'ab', note: '=HYPERLINK("x")', reviewedAt: '2026-11-30T12:00:00.000Z' },
        },
        { checkId: 'arguments', axis: 'call_result', status: 'untested', category: null, reason: 'no call' },
      ],
    });
    const csv = await text(checksCsv([t, fixtureTrial(1, { verdicts: [] })]));
    expect(csv.split('\n')[0]).toBe(CHECK_CSV_COLUMNS.join(','));
    expect(records(csv)).toEqual([
      {
        trialId: 't_000000',
        study: 'selection',
        scenario: 'invoice',
        locale: 'en',
        caseId: 'read-1',
        condition: 'overlapping',
        checkId: 'tool-choice',
        axis: 'task_fit',
        checkpoint: 'selection',
        status: 'fail',
        category: 'unwanted_write',
        reason: "'-> wrote",
        reviewStatus: 'pass',
        reviewer: 'ab',
        reviewNote: `'=HYPERLINK("x")`,
      },
      {
        trialId: 't_000000',
        study: 'selection',
        scenario: 'invoice',
        locale: 'en',
        caseId: 'read-1',
        condition: 'overlapping',
        checkId: 'arguments',
        axis: 'call_result',
        checkpoint: '',
        status: 'untested',
        category: '',
        reason: 'no call',
        reviewStatus: '',
        reviewer: '',
        reviewNote: '',
      },
    ]);
  });
});

describe('neutralise', () => {
  // whitespace and control characters, then a formula sign, then anything (CR, LF, quotes, commas included)
  const hostileText = fc
    .tuple(
      fc.array(fc.constantFrom(' ', '\t', '\r', '\n', '\u0000', '\u00a0', '\u3000', '\u200b'), { maxLength: 3 }),
      fc.constantFrom('', '=', '+', '-', '@'),
      fc.string({ unit: fc.constantFrom('a', ',', '"', '\r', '\n', '=', ' ') }),
    )
    .map(([ws, sign, rest]) => ws.join('') + sign + rest);

  it('property: round-trips any text, and no parsed cell starts with a formula character', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), hostileText), { minLength: 1, maxLength: 5 }), async (texts) => {
        const trials = texts.map((t, i) => fixtureTrial(i, { observation: { toolCalls: [], marker: null, label: null, text: t } }));
        const rows = records(await text(trialsCsv(trials)));
        rows.forEach((r, i) => {
          expect(r.text).toBe(neutralise(texts[i]));
          expect(/^[=+\-@\t\r]/.test(r.text)).toBe(false);
          expect(/^[\s\p{Cc}\p{Cf}]*[=+\-@]/u.test(r.text)).toBe(false);
        });
      }),
      { numRuns: 200 },
    );
  });
});
