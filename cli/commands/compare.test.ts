import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors';
import { runCompare } from './compare';
import { runTclab } from '../main';
import { trials } from '../../lib/export/fixtures/tcc-trials';
import { exportTrialTcc, tccFileNames } from '../../lib/export/tcc';
import { scoreTrial } from '../../lib/scoring/score';
import { labels, markers } from '../../lib/scoring/fixtures/study';

const fixtures = fileURLToPath(new URL('../../lib/scoring/fixtures/', import.meta.url));
const card = path.join(fixtures, 'example-read-record.card.json');
const observations = path.join(fixtures, 'example-read-record.observations.json');
const tmp = mkdtempSync(path.join(tmpdir(), 'tclab-compare-'));
const write = (name: string, text: string) => {
  const f = path.join(tmp, name);
  writeFileSync(f, text);
  return f;
};

async function cli(...args: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const exitCode = await runTclab(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { stdout: out.join(''), stderr: err.join(''), exitCode };
}

describe('tclab compare', () => {
  it("the seed's example card with only tool-choice observed: 1 pass, 3 untested, exit 0", async () => {
    const r = await cli('compare', card, observations, '--json');
    expect(r.exitCode).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(['case_id', 'checks', 'summary']);
    expect(json.summary).toEqual({ pass: 1, fail: 0, untested: 3 });
    expect(json.checks[0]).toEqual({ id: 'tool-choice', axis: 'task_fit', status: 'pass', reason: 'decision read, call_count 1' });
    expect(json.checks.slice(1).map((c: { status: string }) => c.status)).toEqual(['untested', 'untested', 'untested']);
  });

  it('a readable table without --json', async () => {
    const r = await cli('compare', card, observations);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('case example-read-record');
    expect(r.stdout).toMatch(/tool-choice\s+task_fit\s+pass/);
    expect(r.stdout).toContain('1 pass, 0 fail, 3 untested');
  });

  it('exit 1 when a check failed; unknown observation ids are reported, not scored', async () => {
    const obs = write('fail.json', JSON.stringify({ 'tool-choice': { decision: 'write', call_count: 1 }, 'no-such-check': { decision: 'read' } }));
    const r = await cli('compare', card, obs, '--json');
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).checks[0]).toMatchObject({ status: 'fail', reason: 'decision: expected read, observed write' });
    expect(r.stderr).toContain('"no-such-check" is not a check of the card');
  });

  it('exit 2 for a file that is not a valid card or observation: the message names the file and the JSON path', async () => {
    const badCard = write(
      'bad-card.json',
      JSON.stringify({ tcc_version: '0.1', case_id: 'x', locale: 'en', task: 't', context: {}, checks: [{ id: 'a', axis: 'speed', expected: {} }] }),
    );
    let r = await cli('compare', badCard, observations);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(badCard);
    expect(r.stderr).toContain(`${badCard}: checks.0.axis: `);

    const badObs = write('bad-obs.json', JSON.stringify({ 'tool-choice': { call_count: 'one' } }));
    r = await cli('compare', card, badObs);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`tclab: ${badObs}: tool-choice.call_count: `);

    const broken = write('broken.json', '{"tcc_version": "0.1",');
    r = await cli('compare', broken, observations);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${broken}: (json): not valid JSON`);

    expect(() => runCompare(path.join(tmp, 'missing.json'), observations)).toThrow(UsageError);
  });

  it('a card version other than 0.1 is not a TCC v0.1 card', () => {
    const v2 = write(
      'v2.json',
      JSON.stringify({ tcc_version: '0.2', case_id: 'x', locale: 'en', task: 't', context: {}, checks: [{ id: 'a', axis: 'task_fit', expected: {} }] }),
    );
    expect(() => runCompare(v2, observations)).toThrow(/tcc_version: /);
  });

  it('round trip through files and `tclab compare` (exit 1 when a check failed)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tclab-tcc-'));
    for (const t of trials) {
      const { card, observations } = exportTrialTcc(t);
      const names = tccFileNames(`${t.kase.id}|o0|r1`);
      writeFileSync(path.join(dir, names.card), JSON.stringify(card, null, 2));
      writeFileSync(path.join(dir, names.observations), JSON.stringify(observations, null, 2));
      const r = runCompare(path.join(dir, names.card), path.join(dir, names.observations), { json: true });
      const { verdicts } = scoreTrial({ checks: t.kase.checks, observation: t.observation, attemptN: 1, tools: t.tools, markers, labels, task: t.kase.task });
      expect(
        JSON.parse(r.output).checks.map((c: { status: string }) => c.status),
        t.label,
      ).toEqual(verdicts.map((v) => v.status));
      expect(r.exitCode).toBe(verdicts.some((v) => v.status === 'fail') ? 1 : 0);
    }
  });
});
