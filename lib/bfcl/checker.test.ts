import { describe, expect, it } from 'vitest';
import { checkAstEntry, checkRelevanceEntry, decodeResult } from './checker';
import type { BfclFunction } from './data';
import { scoreBfcl } from './score';

const area: BfclFunction = {
  name: 'geometry.triangle_area',
  description: 'Area of a triangle.',
  parameters: { type: 'dict', properties: { base: { type: 'integer' }, height: { type: 'integer' }, unit: { type: 'string' } }, required: ['base', 'height'] },
};
const play: BfclFunction = {
  name: 'spotify.play',
  description: 'Play songs.',
  parameters: { type: 'dict', properties: { artist: { type: 'string' }, duration: { type: 'integer' } }, required: ['artist', 'duration'] },
};
const areaAnswer = [{ 'geometry.triangle_area': { base: [10], height: [5], unit: ['units', ''] } }];
const playAnswer = [{ 'spotify.play': { artist: ['Taylor Swift'], duration: [20] } }, { 'spotify.play': { artist: ['Maroon 5'], duration: [15] } }];

describe('decoding a result as a function-calling handler does', () => {
  it('arguments as a JSON text or an object; text is not a call list', () => {
    expect(decodeResult([{ f: '{"a": 1.0}' }, { g: { b: 2 } }])).toEqual([{ f: { a: expect.anything() } }, { g: { b: 2 } }]);
    expect(() => decodeResult('I cannot help with that.')).toThrow(/text/);
    expect(() => decodeResult([{ f: '{"a": ' }])).toThrow(/not valid JSON/);
  });
});

describe('BFCL AST checker, call level', () => {
  it('simple: exactly one call, the right name', () => {
    expect(checkAstEntry('simple_python', [area], [{ 'geometry.triangle_area': '{"base": 10, "height": 5}' }], areaAnswer).valid).toBe(true);
    expect(checkAstEntry('simple_python', [area], [], areaAnswer).errorType).toBe('simple_function_checker:wrong_count');
    expect(checkAstEntry('simple_python', [area], [{ triangle_area: { base: 10, height: 5 } }], areaAnswer).errorType).toBe('simple_function_checker:wrong_func_name');
    expect(checkAstEntry('simple_python', [area], 'The area is 25.', areaAnswer).errorType).toBe('ast_decoder:decoder_failed');
    expect(checkAstEntry('simple_python', [area], [{ 'geometry.triangle_area': '[10, 5]' }], areaAnswer).errorType).toBe('ast_decoder:decoder_wrong_output_format');
  });

  it('underscore_to_dot: a model that cannot use "." is compared with "_"', () => {
    const result = [{ geometry_triangle_area: { base: 10, height: 5 } }];
    expect(checkAstEntry('simple_python', [area], result, areaAnswer).valid).toBe(false);
    expect(checkAstEntry('simple_python', [area], result, areaAnswer, { underscoreToDot: true }).valid).toBe(true);
  });

  it('multiple: exactly one call, checked against the expected function', () => {
    expect(checkAstEntry('multiple', [play, area], [{ 'geometry.triangle_area': { base: 10, height: 5 } }], areaAnswer).valid).toBe(true);
    expect(checkAstEntry('multiple', [play, area], [{ 'spotify.play': { artist: 'x', duration: 1 } }], areaAnswer).errorType).toBe(
      'simple_function_checker:wrong_func_name',
    );
    const two = [{ 'geometry.triangle_area': { base: 10, height: 5 } }, { 'geometry.triangle_area': { base: 10, height: 5 } }];
    expect(checkAstEntry('multiple', [play, area], two, areaAnswer).errorType).toBe('multiple_function_checker:wrong_count');
  });

  it('parallel: calls matched in any order; count exact', () => {
    const calls = [{ 'spotify.play': { artist: 'Maroon 5', duration: 15 } }, { 'spotify.play': { artist: 'taylor swift', duration: 20 } }];
    expect(checkAstEntry('parallel', [play], calls, playAnswer).valid).toBe(true);
    expect(checkAstEntry('parallel', [play], calls.slice(1), playAnswer).errorType).toBe('parallel_function_checker_no_order:wrong_count');
    const wrong = [calls[0], { 'spotify.play': { artist: 'Taylor Swift', duration: 21 } }];
    expect(checkAstEntry('parallel', [play], wrong, playAnswer).errorType).toBe('parallel_function_checker_no_order:cannot_find_match');
  });

  it('irrelevance = no call; relevance = any call', () => {
    expect(checkRelevanceEntry('irrelevance', 'I cannot do that.').valid).toBe(true);
    expect(checkRelevanceEntry('irrelevance', []).valid).toBe(true);
    expect(checkRelevanceEntry('irrelevance', [{ f: '{}' }])).toMatchObject({ valid: false, errorType: 'irrelevance_error:decoder_success' });
    expect(checkRelevanceEntry('live_relevance', [{ f: '{}' }]).valid).toBe(true);
    expect(checkRelevanceEntry('live_relevance', 'hello').errorType).toBe('relevance_error:decoder_failed');
  });
});

describe('scoreBfcl', () => {
  const q = (id: string) => ({ id, question: [[{ role: 'user', content: 'x' }]], function: [area] });
  it('refuses categories whose rules differ (Java/JavaScript, multi-turn)', () => {
    expect(() => scoreBfcl({ questions: [q('java_0')], answers: [], results: [] })).toThrow(/not supported/);
    expect(() => scoreBfcl({ questions: [q('multi_turn_base_0')], answers: [], results: [] })).toThrow(/not supported/);
  });

  it('counts every question; a missing result is invalid', () => {
    const s = scoreBfcl({
      questions: [q('simple_python_0'), q('simple_python_1')],
      answers: [
        { id: 'simple_python_0', ground_truth: areaAnswer },
        { id: 'simple_python_1', ground_truth: areaAnswer },
      ],
      results: [
        { id: 'simple_python_0', result: [{ 'geometry.triangle_area': '{"base": 10, "height": 5}' }] },
        { id: 'other_3', result: [] },
      ],
    });
    expect(s).toMatchObject({ category: 'simple_python', total: 2, correct: 1, accuracy: 0.5, unknownResultIds: ['other_3'] });
    expect(s.results).toEqual([
      { id: 'simple_python_0', valid: true, error_type: null },
      { id: 'simple_python_1', valid: false, error_type: 'result:missing' },
    ]);
  });
});
