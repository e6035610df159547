import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompare } from '../../cli/commands/compare';
import { toolSetRef } from '../design/hash';
import { TccCard, TccObservations } from '../schema/tcc';
import { compareCard } from '../scoring/compare';
import { scoreTrial } from '../scoring/score';
import { categoryExamples, lookupEn } from '../scoring/fixtures/category-examples';
import { call, checks, labels, markers, observation, restaurantTools, tasks } from '../scoring/fixtures/study';
import { exportTrialTcc, tccFileNames, trialCard, type TrialTccInput } from './tcc';

const trials: (TrialTccInput & { label: string })[] = [
  ...categoryExamples.map((c) => ({
    label: c.name,
    kase: { id: `case-${c.name}`, locale: /[\u4e00-\u9fff]/.test(c.input.task) ? 'zh-TW' : 'en', task: c.input.task, checks: c.input.checks },
    model: 'gemini/gemini-3.1-flash-lite temperature=0',
    tools: c.input.tools.map((t) => ({ ...t, description: 'description' in t ? String(t.description) : '' })),
    observation: c.input.observation,
  })),
  {
    label: 'pass',
    kase: { id: 'restaurant-read-en-1', locale: 'en', task: tasks.restaurantReadEn, checks: checks.read(lookupEn) },
    model: 'simulated/simulated-lexical-v1',
    tools: restaurantTools,
    observation: observation({ toolCalls: [call('find_available_tables', lookupEn)] }),
  },
  {
    label: 'no answer',
    kase: { id: 'restaurant-read-en-2', locale: 'en', task: tasks.restaurantReadEn, checks: checks.read(lookupEn) },
    model: 'openai/gpt-x',
    tools: [...restaurantTools].reverse(),
    observation: null,
  },
];

describe('a trial as TCC v0.1: card + observation file', () => {
  it('fills the context: model and tool_set_ref (SHA-256 of the canonical tool list sent)', () => {
    const t = trials.find((x) => x.label === 'pass')!;
    const card = trialCard(t);
    expect(card.tcc_version).toBe('0.1');
    expect(card.context.model).toBe('simulated/simulated-lexical-v1');
    expect(card.context.tool_set_ref).toBe(toolSetRef(restaurantTools.map(({ name, description, parameters }) => ({ name, description, parameters }))));
    expect(card.context.tool_set_ref).toMatch(/^sha256:[0-9a-f]{64}$/);
    // the order sent is part of the hash
    expect(trialCard({ ...t, tools: [...restaurantTools].reverse() }).context.tool_set_ref).not.toBe(card.context.tool_set_ref);
    expect(card.context.mode).toBe('proposal');
    expect(TccCard.parse(JSON.parse(JSON.stringify(card)))).toEqual(card);
  });

  it('round trip: the exported card compared with the exported observation gives the trial verdicts', () => {
    for (const t of trials) {
      const { card, observations } = exportTrialTcc(t);
      const fromFiles = compareCard(TccCard.parse(JSON.parse(JSON.stringify(card))), TccObservations.parse(JSON.parse(JSON.stringify(observations))));
      const { verdicts } = scoreTrial({ checks: t.kase.checks, observation: t.observation, attemptN: 1, tools: t.tools, markers, labels, task: t.kase.task });
      expect(fromFiles.checks, t.label).toEqual(verdicts.map((v) => ({ id: v.checkId, axis: v.axis, status: v.status, reason: v.reason })));
    }
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

  it('the observation file: null for checks without evidence, fields keyed like expected', () => {
    const { observations } = exportTrialTcc(trials.find((x) => x.label === 'pass')!);
    expect(observations).toEqual({
      'tool-choice': { decision: 'read', call_count: 1 },
      arguments: { arguments: lookupEn },
      state: null,
    });
    expect(exportTrialTcc(trials.find((x) => x.label === 'no answer')!).observations).toEqual({ 'tool-choice': null, arguments: null, state: null });
  });
});
