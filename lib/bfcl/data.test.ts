import { describe, expect, it } from 'vitest';
import { PyFloat, pyEquals, pyType, stringifyPy } from '../scoring/pyvalue';
import { SpecError } from '../schema/common';
import { categoryOf, parseAnswers, parseJsonLines, parseQuestions, parseResults } from './data';
import { parsePyJson } from './pyjson';
import { bfclParametersToJsonSchema } from './schema';

describe('parsePyJson: JSON read as Python reads it', () => {
  it('keeps floats written with a fraction or exponent apart from ints', () => {
    const v = parsePyJson('{"a": 4, "b": 4.0, "c": 1e3, "d": [-0.5, 2], "e": "x\\"y", "f": null, "g": true}') as Record<string, unknown>;
    expect(pyType(v.a)).toBe('int');
    expect(pyType(v.b)).toBe('float');
    expect(v.c).toEqual(new PyFloat(1000));
    expect(v.e).toBe('x"y');
    expect(pyEquals(v.a, v.b)).toBe(true); // 4 == 4.0 in Python
    expect(pyEquals(true, 1)).toBe(true);
    expect(pyEquals('1', 1)).toBe(false);
    expect(stringifyPy(v)).toBe('{"a": 4, "b": 4.0, "c": 1000.0, "d": [-0.5, 2], "e": "x\\"y", "f": null, "g": true}');
    expect(pyType(parsePyJson(stringifyPy(v.b)))).toBe('float');
  });

  it('accepts NaN/Infinity like Python; rejects broken JSON with a position', () => {
    expect(parsePyJson('[NaN, -Infinity]')).toEqual([new PyFloat(NaN), new PyFloat(-Infinity)]);
    expect(() => parsePyJson('{"a": }')).toThrow(/position 6/);
    expect(() => parsePyJson('[1] 2')).toThrow(/after the JSON value/);
  });
});

describe('BFCL JSON Lines', () => {
  it('reads files with and without a trailing newline, with CRLF and blank lines', () => {
    expect(parseJsonLines('{"id":"a"}\n{"id":"b"}', 'f').map((r) => r.line)).toEqual([1, 2]);
    expect(parseJsonLines('{"id":"a"}\r\n\r\n{"id":"b"}\r\n', 'f').map((r) => r.line)).toEqual([1, 3]);
  });

  it('names the file, the line and the JSON path of a bad entry', () => {
    expect(() =>
      parseQuestions('{"id":"simple_0","question":[[{"role":"user","content":"x"}]],"function":[{"name":"f","parameters":{}}]}\n{"id":"simple_1"}', 'Q.json'),
    ).toThrow(SpecError);
    expect(() => parseQuestions('{"id":"simple_1"}', 'Q.json')).toThrow(/Q\.json:1: \$\.question/);
    expect(() => parseAnswers('{"id":"x","ground_truth":[{"f":{"a":1}}]}', 'A.json')).toThrow(/A\.json:1: \$\.ground_truth\[0\]\.f\.a/);
    expect(() => parseResults('{"id":"x","result":[]}\n{"id":', 'R.json')).toThrow(/R\.json:2: not valid JSON/);
  });

  it('answers and results keep floats', () => {
    const [a] = parseAnswers('{"id":"x","ground_truth":[{"f":{"h":[5.0]}}]}');
    expect(pyType(a.ground_truth[0].f.h[0])).toBe('float');
  });

  it('the category comes from the id', () => {
    expect(categoryOf('simple_python_12')).toBe('simple_python');
    expect(categoryOf('live_multiple_19-3-15')).toBe('live_multiple');
    expect(categoryOf('parallel_multiple_0')).toBe('parallel_multiple');
  });
});

describe('BFCL types → JSON Schema', () => {
  it('dict/float/tuple/any, recursively; optional dropped; the rest kept', () => {
    const schema = bfclParametersToJsonSchema({
      type: 'dict',
      properties: {
        a: { type: 'float', description: 'x', default: 0.5 },
        b: { type: 'tuple', items: { type: 'integer' } },
        c: { type: 'any', description: 'anything' },
        d: { type: 'dict', properties: { e: { type: 'string', enum: ['x'] } }, required: ['e'] },
        f: { type: 'array', items: { type: 'dict', properties: { g: { type: 'float' } } } },
        h: { type: 'boolean', optional: true },
      },
      required: ['a'],
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        a: { type: 'number', description: 'x', default: 0.5 },
        b: { type: 'array', items: { type: 'integer' } },
        c: { description: 'anything' },
        d: { type: 'object', properties: { e: { type: 'string', enum: ['x'] } }, required: ['e'] },
        f: { type: 'array', items: { type: 'object', properties: { g: { type: 'number' } } } },
        h: { type: 'boolean' },
      },
      required: ['a'],
    });
  });
});
