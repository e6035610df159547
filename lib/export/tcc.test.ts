import { describe, expect, it } from 'vitest';
import { toolSetRef } from '../hash';
import { TccCard, TccObservations } from '../schema/tcc';
import { compareCard } from '../scoring/compare';
import { scoreTrial } from '../scoring/score';
import { lookupEn } from '../scoring/fixtures/category-examples';
import { labels, markers, restaurantTools } from '../scoring/fixtures/study';
import { trials } from './fixtures/tcc-trials';
import { exportTrialTcc, trialCard } from './tcc';

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
