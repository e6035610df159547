import { describe, expect, it } from 'vitest';
import { argumentTypesFor, fixedCallTypesFor, normalize } from './draft-types';
import { tinyExperiment } from '@/lib/testing/tiny-experiment';

// The types the designer's argument fields take: from the definitions the case's conditions send.

const params = (asin: Record<string, unknown>) => ({ type: 'object', properties: { asin, qty: { type: 'integer' } } });

describe('argumentTypesFor', () => {
  it('reads the parameter schemas of the expected tool in the case scenario and locale', () => {
    const d = normalize(tinyExperiment('x', 't', { parameters: params({ type: 'string' }) }) as Record<string, unknown>);
    const [study] = d.studies;
    const types = argumentTypesFor(d, study, study.cases[0], { tool: 'lookup' });
    expect(types.get('asin')).toEqual({ kind: 'string' });
    expect(types.get('qty')).toEqual({ kind: 'integer' });
    expect(fixedCallTypesFor(d, study, { ...study.cases[0], fixedCall: { tool: 'pay', arguments: {} } }).get('qty')).toEqual({ kind: 'integer' });
  });

  it('where conditions type a parameter differently: silent for the card, each own for a per-condition expectation', () => {
    const d = normalize(tinyExperiment('x', 't', { parameters: params({ type: 'string' }) }) as Record<string, unknown>);
    const [study] = d.studies;
    const treatment = study.conditions[1].tools.invoice.en[0];
    treatment.parameters = params({ type: 'integer' });
    expect(argumentTypesFor(d, study, study.cases[0], { tool: 'lookup' }).get('asin')).toEqual({ kind: 'silent', types: ['string', 'integer'] });
    expect(argumentTypesFor(d, study, study.cases[0], { tool: 'lookup' }, 'clear').get('asin')).toEqual({ kind: 'integer' });
    expect(argumentTypesFor(d, study, study.cases[0], { tool: 'lookup' }, 'overlapping').get('asin')).toEqual({ kind: 'string' });
  });
});
