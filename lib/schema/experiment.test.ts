import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checksFor } from './experiment';
import { ExperimentSpec } from '../design/experiment-spec';
import { referenceStudyInput } from '../templates/reference-study';

const seedCard = JSON.parse(readFileSync(new URL('../scoring/fixtures/example-read-record.card.json', import.meta.url), 'utf8'));

function withCase(extra: Record<string, unknown>) {
  const spec = structuredClone(referenceStudyInput()) as { studies: { cases: unknown[] }[] };
  spec.studies[0].cases.push(extra);
  return spec;
}

describe('ExperimentSpec', () => {
  it('accepts a case written as an attached TCC card, taking its id, locale, task, checks and evidence gate', () => {
    // the seed's card, fitted to the invoice scenario of the selection study (its parameter; no label defined there)
    const checks = structuredClone(seedCard.checks);
    checks[1].expected = { arguments: { invoice_number: 'DEMO-001' } };
    checks[2].expected = { call_count: 1 };
    const card = { ...seedCard, locale: 'en', case_id: 'attached-card', checks };
    const spec = ExperimentSpec.parse(withCase({ scenario: 'invoice', card }));
    const kase = spec.studies[0].cases.find((c) => c.id === 'attached-card')!;
    expect(kase.task).toBe(card.task);
    expect(kase.checks.map((c) => c.id)).toEqual(['tool-choice', 'arguments', 'result', 'state']);
    expect(kase.evidenceGate).toEqual(card.evidence_gate);
    expect(checksFor(kase, 'clear')).toEqual(kase.checks);
  });

  it('names the field when an attached card is invalid or its case does not fit the spec', () => {
    const r = ExperimentSpec.safeParse(withCase({ scenario: 'invoice', card: { ...seedCard, locale: 'fr' } }));
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toContain(`studies.0.cases.${referenceStudyInput().studies[0].cases.length}.locale`);
    const bad = ExperimentSpec.safeParse(withCase({ scenario: 'invoice', card: { tcc_version: '0.1' } }));
    expect(bad.success).toBe(false);
  });

  it('rejects per-condition expectations for unknown conditions or checks', () => {
    const r = ExperimentSpec.safeParse(
      withCase({
        scenario: 'invoice',
        locale: 'en',
        id: 'x1',
        task: 't',
        checks: [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: 'read' } }],
        expectByCondition: { nope: { 'tool-choice': { decision: 'stop' } }, clear: { missing: {} } },
      }),
    );
    expect(r.success).toBe(false);
    const messages = r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    expect(messages).toMatch(/expectByCondition\.nope: unknown condition "nope"/);
    expect(messages).toMatch(/expectByCondition\.clear\.missing: no check "missing"/);
  });
});
