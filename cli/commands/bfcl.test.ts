import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from '../../lib/design/experiment-spec';
import { SpecError } from '../../lib/schema/common';
import { UsageError } from '../errors';
import { runBfclImport, runBfclScore } from './bfcl';

const dir = mkdtempSync(path.join(tmpdir(), 'tclab-bfcl-'));
mkdirSync(path.join(dir, 'possible_answer'));
const fn = {
  name: 'calculate_triangle_area',
  description: 'Calculate the area of a triangle.',
  parameters: { type: 'dict', properties: { base: { type: 'integer' }, height: { type: 'integer' }, unit: { type: 'string' } }, required: ['base', 'height'] },
};
const q = (i: number) => JSON.stringify({ id: `simple_python_${i}`, question: [[{ role: 'user', content: `Triangle ${i}: base 10, height 5.` }]], function: [fn] });
const a = (i: number) => JSON.stringify({ id: `simple_python_${i}`, ground_truth: [{ calculate_triangle_area: { base: [10], height: [5], unit: ['units', ''] } }] });
// BFCL files are JSON Lines and some lack the final newline
writeFileSync(path.join(dir, 'BFCL_v4_simple_python.json'), [0, 1, 2, 3].map(q).join('\n'));
writeFileSync(path.join(dir, 'possible_answer', 'BFCL_v4_simple_python.json'), [0, 1, 2, 3].map(a).join('\n') + '\n');
const results = path.join(dir, 'result.json');
writeFileSync(
  results,
  [
    '{"id": "simple_python_0", "result": [{"calculate_triangle_area": "{\\"base\\": 10, \\"height\\": 5}"}]}',
    '{"id": "simple_python_1", "result": [{"calculate_triangle_area": {"base": 10, "height": 5, "unit": "Units"}}]}',
    '{"id": "simple_python_2", "result": [{"calculate_triangle_area": "{\\"base\\": 10.0, \\"height\\": 5}"}]}',
    '{"id": "simple_python_3", "result": "The area is 25 square units."}',
  ].join('\n'),
);

describe('tclab bfcl score', () => {
  it('--json prints {category, total, correct, accuracy, results: [{id, valid, error_type}]}', () => {
    const { output } = runBfclScore({ questions: path.join(dir, 'BFCL_v4_simple_python.json'), results, json: true });
    expect(JSON.parse(output)).toEqual({
      category: 'simple_python',
      total: 4,
      correct: 2,
      accuracy: 0.5,
      results: [
        { id: 'simple_python_0', valid: true, error_type: null },
        { id: 'simple_python_1', valid: true, error_type: null },
        { id: 'simple_python_2', valid: false, error_type: 'type_error:simple' },
        { id: 'simple_python_3', valid: false, error_type: 'ast_decoder:decoder_failed' },
      ],
    });
  });

  it('a readable summary without --json; answers found beside the questions (possible_answer/)', () => {
    const { output } = runBfclScore({ questions: path.join(dir, 'BFCL_v4_simple_python.json'), results });
    expect(output).toContain('BFCL simple_python: 2/4 correct (50.00%)');
    expect(output).toMatch(/simple_python_2\s+type_error:simple/);
  });

  it('invalid input: missing answers, broken lines', () => {
    const lone = path.join(dir, 'lone.json');
    writeFileSync(lone, q(0));
    expect(() => runBfclScore({ questions: lone, results })).toThrow(UsageError);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '{"id": "simple_python_0", "result": []}\n{"id": ');
    expect(() => runBfclScore({ questions: path.join(dir, 'BFCL_v4_simple_python.json'), results: broken })).toThrow(SpecError);
  });
});

describe('tclab bfcl import', () => {
  it('writes an experiment spec that validates against ExperimentSpec', () => {
    const r = runBfclImport({ questions: path.join(dir, 'BFCL_v4_simple_python.json'), limit: '2' });
    const spec = ExperimentSpec.parse(JSON.parse(r.json));
    expect(r.cases).toBe(2);
    expect(spec.studies[0].conditions.map((c) => c.id)).toEqual(['as-published', 'candidate']);
    expect(() => runBfclImport({ questions: path.join(dir, 'BFCL_v4_simple_python.json'), limit: '0' })).toThrow(UsageError);
  });
});
