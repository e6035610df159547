// Hostile inputs, generated: malformed or adversarial experiment specs, TCC case cards and observation
// files across the families of docs/input-validation.md (syntax, encoding, types, limits, references, semantics, prototype
// keys, control characters, depth, size). Each case says what every door must answer: refused, with an
// issue whose path starts with `path` and whose message contains `message`. The tests send each case
// through every door (the parse functions, the CLI commands, the import form) and count rows.

import { tinyExperiment } from './tiny-experiment';

export type Family = 'syntax' | 'encoding' | 'types' | 'limits' | 'references' | 'semantics' | 'prototype-keys' | 'control-characters' | 'depth' | 'size';
export const FAMILIES: readonly Family[] = ['syntax', 'encoding', 'types', 'limits', 'references', 'semantics', 'prototype-keys', 'control-characters', 'depth', 'size'];

export type Kind = 'spec' | 'card' | 'observations';

export interface HostileCase {
  name: string;
  family: Family;
  kind: Kind;
  bytes: Uint8Array;
  /** Whether the input can be pasted as text (byte-level encodings cannot). */
  pasteable: boolean;
  expect: { path: string; message: string };
}

type Json = Record<string, unknown>;
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- mutations reach into untyped JSON
const enc = new TextEncoder();

/** A valid spec with a selection and an interpretation study (the base every spec case mutates): the tiny experiment, grown. */
export function baseSpec(id = 'hostile-base'): Json {
  const tiny = tinyExperiment(id, 'Show invoice INV-7.', {
    parameters: { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_id'], additionalProperties: false },
    description: (effect, clear) =>
      !clear ? 'Handles invoices.' : effect === 'read' ? 'Read-only: looks up an invoice by its id.' : 'Writes: submits a payment for an invoice.',
    conditions: { baseline: 'vague', treatment: 'clear' },
  }) as Any;
  const [selection] = tiny.studies;
  const [vague, clear] = selection.conditions;
  selection.cases[0].checks = [
    { id: 'tool-choice', axis: 'task_fit', condition: 'Only look it up', expected: { decision: 'read', tool: 'lookup', call_count: 1 } },
    { id: 'arguments', axis: 'call_result', expected: { arguments: { invoice_id: 'INV-7' } } },
  ];
  selection.cases[0].evidenceGate = [{ claim: 'lookup only reads', evidence_ref: null, status: 'unknown' }];
  return {
    format: tiny.format,
    id,
    name: 'Hostile base',
    description: 'The valid spec the hostile cases mutate.',
    locales: tiny.locales,
    scenarios: tiny.scenarios,
    studies: [
      { ...selection, conditions: [{ ...vague, label: 'Vague' }, clear] },
      {
        id: 'interpretation',
        kind: 'interpretation',
        title: 'Interpretation',
        protocol: { system: { en: 'Report STATUS: <LABEL>.' }, labels: ['PAID', 'PENDING', 'CANNOT_DETERMINE'] },
        conditions: [
          { id: 'no-codes', label: 'No codes', baseline: true, tools: structuredClone(vague.tools) },
          { id: 'codes', label: 'Codes', tools: structuredClone(clear.tools) },
        ],
        cases: [
          {
            id: 'status-1',
            scenario: 'invoice',
            locale: 'en',
            task: 'Is INV-7 paid?',
            fixedCall: { tool: 'lookup', arguments: { invoice_id: 'INV-7' } },
            toolResult: { status: 41 },
            checks: [{ id: 'result', axis: 'call_result', expected: { label: 'PAID' } }],
            expectByCondition: { 'no-codes': { result: { label: 'CANNOT_DETERMINE' } } },
          },
        ],
      },
    ],
    replicates: 1,
    prechecks: [{ study: 'selection', condition: 'clear', caseId: 'read-1' }],
  };
}

/** A valid TCC v0.1 card (seed 000's example) and a matching observation file. */
export function baseCard(): Json {
  return {
    tcc_version: '0.1',
    case_id: 'example-read-record',
    locale: 'en',
    task: 'Check the status of record DEMO-001.',
    context: { client: null, model: null, tool_set_ref: null, fixture_ref: null, mode: 'fixture' },
    evidence_gate: [{ claim: 'The lookup tool only reads records.', evidence_ref: null, status: 'unknown' }],
    checks: [
      { id: 'tool-choice', axis: 'task_fit', condition: 'Only look up the record', expected: { decision: 'read', call_count: 1 } },
      { id: 'arguments', axis: 'call_result', expected: { arguments: { record_id: 'DEMO-001' } } },
    ],
  };
}
export function baseObservations(): Json {
  return { 'tool-choice': { decision: 'read', call_count: 1 }, arguments: { arguments: { record_id: 'DEMO-001' } } };
}

const clone = <T>(x: T): T => structuredClone(x);

/** Nesting `depth` levels deep, as JSON text (objects, or arrays). */
export function deepJson(depth: number, arrays = false): string {
  return arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** JSON text of `value` with the string `"@@RAW@@"` replaced by `raw` (for nesting JSON.stringify cannot build). */
function withRaw(value: unknown, raw: string): string {
  return JSON.stringify(value).replace('"@@RAW@@"', raw);
}

export function hostileCases(): HostileCase[] {
  const out: HostileCase[] = [];
  const add = (kind: Kind, family: Family, name: string, input: string | Uint8Array, path: string, message: string, pasteable = typeof input === 'string') =>
    out.push({ kind, family, name: `${kind}/${family}: ${name}`, bytes: typeof input === 'string' ? enc.encode(input) : input, pasteable, expect: { path, message } });
  const spec = (family: Family, name: string, mutate: (s: Any) => void, path: string, message: string) => {
    const s = clone(baseSpec()) as Any;
    mutate(s);
    add('spec', family, name, JSON.stringify(s), path, message);
  };
  const S0 = 'studies.0';
  const C0 = `${S0}.cases.0`;
  const I0 = 'studies.1.cases.0';
  const D0 = `${S0}.conditions.0.tools.invoice.en.0`;

  // ---- syntax
  const text = JSON.stringify(baseSpec());
  add('spec', 'syntax', 'truncated', text.slice(0, text.length - 7), '(json)', 'not valid JSON');
  add('spec', 'syntax', 'trailing comma', text.replace(/\}$/, ',}'), '(json)', 'not valid JSON');
  add('spec', 'syntax', 'single quotes', text.replace('"format"', "'format'"), '(json)', 'not valid JSON');
  add('spec', 'syntax', 'a comment', `// spec\n${text}`, '(json)', 'not valid JSON');
  add('spec', 'syntax', 'NaN', text.replace('"replicates":1', '"replicates":NaN'), '(json)', 'not valid JSON');
  add('spec', 'syntax', 'two documents', `${text}\n${text}`, '(json)', 'not valid JSON');
  add('spec', 'syntax', 'empty', '', '(input)', 'empty');
  add('spec', 'syntax', 'only whitespace', ' \n\t ', '(input)', 'empty');
  add('spec', 'syntax', 'a raw control character inside a string', text.replace('Hostile base', 'Hostile\u0001base'), '(json)', 'not valid JSON');
  add('spec', 'syntax', 'a bare string', '"tclab.experiment/v1"', '(root)', 'expected object');
  add('spec', 'syntax', 'an array', `[${text}]`, '(root)', 'expected object');
  add('spec', 'syntax', 'null', 'null', '(root)', 'expected object');

  // ---- encoding (bytes)
  const bytes = enc.encode(text);
  const splice = (at: number, ins: number[]) => new Uint8Array([...bytes.subarray(0, at), ...ins, ...bytes.subarray(at)]);
  const nameAt = text.indexOf('Hostile base') + 7;
  add('spec', 'encoding', 'an invalid byte 0xFF', splice(nameAt, [0xff]), '(input)', 'not valid UTF-8', false);
  add('spec', 'encoding', 'an overlong encoding C0 80', splice(nameAt, [0xc0, 0x80]), '(input)', 'not valid UTF-8', false);
  add('spec', 'encoding', 'a raw lone surrogate ED A0 80 (CESU)', splice(nameAt, [0xed, 0xa0, 0x80]), '(input)', 'not valid UTF-8', false);
  add('spec', 'encoding', 'a truncated sequence E4 B8', splice(nameAt, [0xe4, 0xb8]), '(input)', 'not valid UTF-8', false);
  add('spec', 'encoding', 'Latin-1 é (E9)', splice(nameAt, [0xe9]), '(input)', 'not valid UTF-8', false);
  const utf16 = new Uint8Array(2 + text.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) utf16.set([text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8], 2 + i * 2);
  add('spec', 'encoding', 'UTF-16 LE with its BOM', utf16, '(input)', 'UTF-16', false);
  add('spec', 'encoding', 'a BOM, then an invalid byte', new Uint8Array([0xef, 0xbb, 0xbf, ...splice(nameAt, [0xfe])]), '(input)', 'not valid UTF-8', false);

  // ---- types
  spec('types', 'replicates as a string', (s) => (s.replicates = '5'), 'replicates', 'expected number');
  spec('types', 'replicates 1.5', (s) => (s.replicates = 1.5), 'replicates', 'expected int');
  spec('types', 'locales as a string', (s) => (s.locales = 'en'), 'locales', 'expected array');
  spec('types', 'scenarios as an object', (s) => (s.scenarios = { invoice: {} }), 'scenarios', 'expected array');
  spec('types', 'baseline as a string', (s) => (s.studies[0].conditions[0].baseline = 'true'), `${S0}.conditions.0.baseline`, 'expected boolean');
  spec('types', 'tools as an array', (s) => (s.studies[0].conditions[1].tools = []), `${S0}.conditions.1.tools`, 'expected an object');
  spec('types', 'checks null', (s) => (s.studies[0].cases[0].checks = null), `${C0}.checks`, 'expected array');
  spec('types', 'task a number', (s) => (s.studies[0].cases[0].task = 42), `${C0}.task`, 'expected string');
  spec('types', 'parameters an array', (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters = []), `${D0}.parameters`, 'expected an object');
  spec('types', 'name a number', (s) => (s.name = 5), 'name', 'expected string');
  spec('types', 'an unknown kind', (s) => (s.studies[0].kind = 'guessing'), `${S0}.kind`, 'Invalid option');
  spec('types', 'an unknown effect', (s) => (s.scenarios[0].tools[0].effect = 'delete'), 'scenarios.0.tools.0.effect', 'Invalid option');
  spec('types', 'an unknown axis', (s) => (s.studies[0].cases[0].checks[0].axis = 'speed'), `${C0}.checks.0.axis`, 'Invalid option');
  spec('types', 'call_count a string', (s) => (s.studies[0].cases[0].checks[0].expected.call_count = 'one'), `${C0}.checks.0.expected.call_count`, 'expected number');
  spec('types', 'a wrong format', (s) => (s.format = 'tclab.experiment/v2'), 'format', 'expected');
  spec('types', 'an id with a pipe', (s) => (s.studies[0].cases[0].id = 'a|b'), `${C0}.id`, 'letters, digits');
  spec('types', 'a bad locale tag', (s) => (s.locales = ['english!']), 'locales.0', 'locale tag');

  // ---- limits (stated maxima)
  spec('limits', 'a name of 201 characters', (s) => (s.name = 'n'.repeat(201)), 'name', 'at most 200 characters');
  spec('limits', 'a description of 20,001 characters', (s) => (s.description = 'd'.repeat(20_001)), 'description', 'at most 20000 characters');
  spec(
    'limits',
    'a tool description of 8,001 characters',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].description = 'x'.repeat(8001)),
    `${D0}.description`,
    'at most 8000 characters',
  );
  spec('limits', 'a task of 20,001 characters', (s) => (s.studies[0].cases[0].task = 't'.repeat(20_001)), `${C0}.task`, 'at most 20000 characters');
  spec('limits', 'an id of 81 characters', (s) => (s.id = 'i'.repeat(81)), 'id', 'at most 80 characters');
  spec('limits', '101 replicates', (s) => (s.replicates = 101), 'replicates', 'at most 100');
  spec(
    'limits',
    '51 locales',
    (s) => (s.locales = Array.from({ length: 51 }, (_, i) => `x${String.fromCharCode(97 + (i % 26))}-${i + 10}`)),
    'locales',
    'at most 50 items',
  );
  spec(
    'limits',
    '101 checks',
    (s) => (s.studies[0].cases[0].checks = Array.from({ length: 101 }, (_, i) => ({ id: `c${i}`, axis: 'task_fit', expected: { decision: 'read' } }))),
    `${C0}.checks`,
    'at most 100 items',
  );
  spec(
    'limits',
    'a marker of 41 characters',
    (s) => (s.studies[0].protocol.markers = { clarify: `${'C'.repeat(40)}:` }),
    `${S0}.protocol.markers.clarify`,
    'at most 40 characters',
  );
  spec('limits', '201 labels', (s) => (s.studies[1].protocol.labels = Array.from({ length: 201 }, (_, i) => `L${i}`)), 'studies.1.protocol.labels', 'at most 200 items');
  spec('limits', 'an empty title', (s) => (s.studies[0].title = ''), `${S0}.title`, 'must not be empty');
  spec('limits', 'one condition', (s) => (s.studies[0].conditions = [s.studies[0].conditions[0]]), `${S0}.conditions`, 'at least 2 items');
  spec('limits', 'no cases', (s) => (s.studies[0].cases = []), `${S0}.cases`, 'at least one item');

  // ---- references
  spec(
    'references',
    'a case expecting a tool that does not exist',
    (s) => (s.studies[0].cases[0].checks[0].expected.tool = 'refund'),
    `${C0}.checks.0.expected.tool`,
    '"refund" is not a tool of scenario',
  );
  spec(
    'references',
    'expected arguments naming a parameter no tool has',
    (s) => (s.studies[0].cases[0].checks[1].expected.arguments = { invoice_number: 'INV-7' }),
    `${C0}.checks.1.expected.arguments.invoice_number`,
    'has a parameter "invoice_number"',
  );
  spec(
    'references',
    'an expected argument given as a number where the schema says string',
    (s) => (s.studies[0].cases[0].checks[1].expected.arguments = { invoice_id: 593135202 }),
    `${C0}.checks.1.expected.arguments.invoice_id`,
    `expected a string (the tool's schema says "string"), got the number 593135202`,
  );
  spec(
    'references',
    'an expected label the protocol does not define',
    (s) => (s.studies[1].cases[0].checks[0].expected.label = 'REFUNDED'),
    `${I0}.checks.0.expected.label`,
    'is not defined by the study',
  );
  spec(
    'references',
    'a per-condition label the protocol does not define',
    (s) => (s.studies[1].cases[0].expectByCondition['no-codes'].result.label = 'UNKNOWN'),
    `${I0}.expectByCondition.no-codes.result.label`,
    'is not defined',
  );
  spec(
    'references',
    'a fixedCall naming a tool that does not exist',
    (s) => (s.studies[1].cases[0].fixedCall.tool = 'refund'),
    `${I0}.fixedCall.tool`,
    'is not a tool of scenario',
  );
  spec(
    'references',
    'a fixedCall naming a tool a condition does not send',
    (s) => (s.studies[1].conditions[1].tools.invoice.en = s.studies[1].conditions[1].tools.invoice.en.slice(1)),
    `${I0}.fixedCall.tool`,
    'does not send tool "lookup"',
  );
  spec('references', 'a case of an unknown scenario', (s) => (s.studies[0].cases[0].scenario = 'bank'), `${C0}.scenario`, 'unknown scenario "bank"');
  spec('references', 'a case in a locale not in locales', (s) => (s.studies[0].cases[0].locale = 'fr'), `${C0}.locale`, 'not in locales');
  spec(
    'references',
    'condition tools for an unknown scenario',
    (s) => (s.studies[0].conditions[0].tools.bank = s.studies[0].conditions[0].tools.invoice),
    `${S0}.conditions.0.tools.bank`,
    'unknown scenario',
  );
  spec(
    'references',
    'condition tools in a locale not in locales',
    (s) => (s.studies[0].conditions[0].tools.invoice.de = s.studies[0].conditions[0].tools.invoice.en),
    `${S0}.conditions.0.tools.invoice.de`,
    'not in locales',
  );
  spec(
    'references',
    'a definition of a tool the scenario does not have',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[1].tool = 'refund'),
    `${S0}.conditions.0.tools.invoice.en.1.tool`,
    'is not a tool of scenario',
  );
  spec('references', 'a pre-check of an unknown study', (s) => (s.prechecks[0].study = 'nope'), 'prechecks.0.study', 'unknown study');
  spec('references', 'a pre-check of an unknown condition', (s) => (s.prechecks[0].condition = 'nope'), 'prechecks.0.condition', 'unknown condition');
  spec('references', 'a pre-check of an unknown case', (s) => (s.prechecks[0].caseId = 'nope'), 'prechecks.0.caseId', 'unknown case');
  spec(
    'references',
    'per-condition expectations of an unknown condition',
    (s) => (s.studies[1].cases[0].expectByCondition.nope = { result: { label: 'PAID' } }),
    `${I0}.expectByCondition.nope`,
    'unknown condition',
  );
  spec(
    'references',
    'per-condition expectations of an unknown check',
    (s) => (s.studies[1].cases[0].expectByCondition.codes = { missing: { label: 'PAID' } }),
    `${I0}.expectByCondition.codes.missing`,
    'no check "missing"',
  );
  spec(
    'references',
    'a condition without tools for a case',
    (s) => delete s.studies[0].conditions[1].tools.invoice,
    `${S0}.conditions.1.tools`,
    'has no tools for invoice/en',
  );
  spec('references', 'no system instruction for a locale', (s) => (s.studies[0].protocol.system = { 'zh-TW': 'x' }), `${S0}.protocol.system`, 'locale');

  // ---- semantics
  spec(
    'semantics',
    'decision read expecting a write tool',
    (s) => (s.studies[0].cases[0].checks[0].expected.tool = 'pay'),
    `${C0}.checks.0.expected.decision`,
    'is a write tool',
  );
  spec(
    'semantics',
    'decision clarify naming a tool',
    (s) => (s.studies[0].cases[0].checks[0].expected.decision = 'clarify'),
    `${C0}.checks.0.expected.tool`,
    'expects no call',
  );
  spec('semantics', 'an expected that checks nothing', (s) => (s.studies[0].cases[0].checks[1].expected = {}), `${C0}.checks.1.expected`, 'checks nothing');
  spec('semantics', 'duplicate locales', (s) => (s.locales = ['en', 'en']), 'locales', 'duplicate locale "en"');
  spec('semantics', 'duplicate scenario tool ids', (s) => s.scenarios[0].tools.push({ id: 'pay', effect: 'write' }), 'scenarios.0.tools', 'duplicate tool id "pay"');
  spec(
    'semantics',
    'two definitions of one scenario tool in a catalog',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[1].tool = 'lookup'),
    `${S0}.conditions.0.tools.invoice.en`,
    'two definitions of scenario tool "lookup"',
  );
  spec(
    'semantics',
    'two tools with one name',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[1].name = 'get_invoice'),
    `${S0}.conditions.0.tools.invoice.en`,
    'two tools are named "get_invoice"',
  );
  spec(
    'semantics',
    'required naming a missing property',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters = { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_no'] }),
    `${D0}.parameters`,
    'not a JSON Schema that compiles',
  );
  spec(
    'semantics',
    'properties given as a string',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters = { type: 'object', properties: 'invoice_id' }),
    `${D0}.parameters`,
    'not a JSON Schema that compiles',
  );
  spec(
    'semantics',
    'a property type that is not a type',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters = { type: 'object', properties: { invoice_id: { type: 'text' } } }),
    `${D0}.parameters`,
    'not a JSON Schema that compiles',
  );
  spec(
    'semantics',
    'a $ref that cannot resolve',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters = { type: 'object', properties: { invoice_id: { $ref: '#/definitions/nope' } } }),
    `${D0}.parameters`,
    'not a JSON Schema that compiles',
  );
  spec(
    'semantics',
    'parameters not of type object',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters = { type: 'string' }),
    `${D0}.parameters`,
    'type "object"',
  );
  spec('semantics', 'a misspelt key "replicate"', (s) => (s.replicate = 5), 'replicate', 'unknown key');
  spec('semantics', 'a misspelt key in a case ("checkz")', (s) => (s.studies[0].cases[0].checkz = []), `${C0}.checkz`, 'unknown key');
  spec(
    'semantics',
    'a misspelt key in an expectation ("decison")',
    (s) => (s.studies[0].cases[0].checks[0].expected.decison = 'read'),
    `${C0}.checks.0.expected.decison`,
    'unknown key',
  );
  spec(
    'semantics',
    'a misspelt key in a tool definition ("parameter")',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameter = {}),
    `${D0}.parameter`,
    'unknown key',
  );
  spec('semantics', 'no baseline', (s) => (s.studies[0].conditions[0].baseline = false), `${S0}.conditions`, 'exactly one condition must be the baseline');
  spec('semantics', 'two baselines', (s) => (s.studies[0].conditions[1].baseline = true), `${S0}.conditions`, 'exactly one condition must be the baseline');
  spec('semantics', 'duplicate case ids', (s) => s.studies[0].cases.push(clone(s.studies[0].cases[0])), `${S0}.cases`, 'duplicate case id');
  spec('semantics', 'duplicate check ids', (s) => (s.studies[0].cases[0].checks[1].id = 'tool-choice'), `${C0}.checks`, 'duplicate check id');
  spec('semantics', 'duplicate condition ids', (s) => (s.studies[0].conditions[1].id = 'vague'), `${S0}.conditions`, 'duplicate condition id');
  spec('semantics', 'duplicate scenario ids', (s) => s.scenarios.push(clone(s.scenarios[0])), 'scenarios', 'duplicate scenario id');
  spec('semantics', 'duplicate study ids', (s) => (s.studies[1].id = 'selection'), 'studies', 'duplicate study id');
  spec('semantics', 'an interpretation case without its fixed call', (s) => delete s.studies[1].cases[0].fixedCall, `${I0}.fixedCall`, 'needs the fixed lookup call');
  spec(
    'semantics',
    'an interpretation case without its tool result',
    (s) => delete s.studies[1].cases[0].toolResult,
    `${I0}.toolResult`,
    'needs the injected tool result',
  );
  spec('semantics', 'markers that are alike', (s) => (s.studies[0].protocol.markers = { clarify: 'X:', stop: 'X:' }), `${S0}.protocol.markers`, 'must differ');
  // bounds (docs/input-validation.md): 7 tools in all permutations; a matrix over the trial limit
  const seven = (s: Any) => {
    const ids = ['t1', 't2', 't3', 't4', 't5', 't6', 't7'];
    s.scenarios[0].tools = ids.map((id) => ({ id, effect: 'read' }));
    for (const c of s.studies[0].conditions)
      c.tools.invoice.en = ids.map((id) => ({
        tool: id,
        name: `tool_${id}`,
        description: `Reads ${id}.`,
        parameters: { type: 'object', properties: { invoice_id: { type: 'string' } } },
      }));
    s.studies[0].cases[0].checks = [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: 'read', tool: 't1' } }];
    s.studies.pop();
    s.prechecks = [];
  };
  spec(
    'semantics',
    'all-permutations over 7 tools (5,040 orders)',
    (s) => (seven(s), (s.studies[0].orderPolicy = 'all-permutations')),
    `${S0}.orderPolicy`,
    'makes 5,040 candidate orders',
  );
  spec(
    'semantics',
    'a matrix over 1,000,000 trials per run',
    (s) => {
      seven(s);
      s.scenarios[0].tools = s.scenarios[0].tools.slice(0, 6);
      for (const c of s.studies[0].conditions) c.tools.invoice.en = c.tools.invoice.en.slice(0, 6);
      s.studies[0].orderPolicy = 'all-permutations';
      s.replicates = 100;
      s.studies[0].cases = Array.from({ length: 7 }, (_, i) => ({ ...clone(s.studies[0].cases[0]), id: `case-${i}` }));
    },
    'studies',
    'makes 1,008,000 formal trials per run',
  );

  // ---- prototype keys
  spec(
    'prototype-keys',
    "a __proto__ key among a condition's scenarios",
    (s) => (s.studies[0].conditions[0].tools = JSON.parse(`{"invoice": ${JSON.stringify(s.studies[0].conditions[0].tools.invoice)}, "__proto__": {"en": []}}`)),
    `${S0}.conditions.0.tools.__proto__`,
    'letters, digits',
  );
  add('spec', 'prototype-keys', 'a __proto__ key at the root', text.replace('{"format"', '{"__proto__":{"replicates":9},"format"'), '__proto__', 'unknown key');
  spec('prototype-keys', 'a case of scenario "constructor"', (s) => (s.studies[0].cases[0].scenario = 'constructor'), `${C0}.scenario`, 'unknown scenario "constructor"');
  spec(
    'prototype-keys',
    'condition tools for scenario "toString"',
    (s) => (s.studies[0].conditions[0].tools.toString = s.studies[0].conditions[0].tools.invoice),
    `${S0}.conditions.0.tools.toString`,
    'unknown scenario "toString"',
  );
  spec(
    'prototype-keys',
    'per-condition expectations of condition "hasOwnProperty"',
    (s) => (s.studies[1].cases[0].expectByCondition.hasOwnProperty = { result: { label: 'PAID' } }),
    `${I0}.expectByCondition.hasOwnProperty`,
    'unknown condition',
  );
  spec('prototype-keys', 'a pre-check of study "constructor"', (s) => (s.prechecks[0].study = 'constructor'), 'prechecks.0.study', 'unknown study "constructor"');
  spec(
    'prototype-keys',
    'a fixedCall of tool "toString"',
    (s) => (s.studies[1].cases[0].fixedCall.tool = 'toString'),
    `${I0}.fixedCall.tool`,
    'is not a tool of scenario',
  );
  spec(
    'prototype-keys',
    'an expected tool "constructor"',
    (s) => (s.studies[0].cases[0].checks[0].expected.tool = 'constructor'),
    `${C0}.checks.0.expected.tool`,
    'is not a tool of scenario',
  );
  spec(
    'prototype-keys',
    'expected arguments "__proto__"',
    (s) => (s.studies[0].cases[0].checks[1].expected.arguments = JSON.parse('{"__proto__": "INV-7"}')),
    `${C0}.checks.1.expected.arguments.__proto__`,
    'has a parameter "__proto__"',
  );
  spec(
    'prototype-keys',
    'a system instruction for locale "__proto__"',
    (s) => (s.studies[0].protocol.system = JSON.parse('{"en": "x", "__proto__": "y"}')),
    `${S0}.protocol.system.__proto__`,
    'locale tag',
  );
  spec(
    'prototype-keys',
    'per-condition expectations of check "__proto__"',
    (s) => (s.studies[1].cases[0].expectByCondition.codes = JSON.parse('{"__proto__": {"label": "PAID"}}')),
    `${I0}.expectByCondition.codes.__proto__`,
    'no check "__proto__"',
  );

  // ---- control characters (every kind of text field × NUL, ESC sequence, C1 CSI, lone surrogate, CR)
  const fields: [string, (s: Any, v: string) => void, string][] = [
    ['name', (s, v) => (s.name = `Hostile ${v} name`), 'name'],
    ['description', (s, v) => (s.description = `About ${v}`), 'description'],
    ['a scenario title', (s, v) => (s.scenarios[0].title = `Invoice ${v}`), 'scenarios.0.title'],
    ['a condition label', (s, v) => (s.studies[0].conditions[0].label = `Vague ${v}`), `${S0}.conditions.0.label`],
    ['a tool description', (s, v) => (s.studies[0].conditions[0].tools.invoice.en[0].description = `Reads ${v}`), `${D0}.description`],
    ['a task', (s, v) => (s.studies[0].cases[0].task = `Show ${v} INV-7`), `${C0}.task`],
    ['a system instruction', (s, v) => (s.studies[0].protocol.system.en = `Use a tool ${v}`), `${S0}.protocol.system.en`],
    ['a protocol label', (s, v) => (s.studies[1].protocol.labels[0] = `PAID${v}`), 'studies.1.protocol.labels.0'],
    ['a check condition', (s, v) => (s.studies[0].cases[0].checks[0].condition = `Only ${v}`), `${C0}.checks.0.condition`],
    ['an evidence claim', (s, v) => (s.studies[0].cases[0].evidenceGate[0].claim = `reads ${v}`), `${C0}.evidenceGate.0.claim`],
  ];
  const chars: [string, string, string][] = [
    ['NUL', '\u0000', 'NUL character'],
    ['an ANSI escape sequence', '\u001b[31mred\u001b[0m', 'control character U+001B'],
    ['C1 CSI (U+009B)', '\u009b2J', 'control character U+009B'],
    ['a lone surrogate', '\ud800', 'lone surrogate'],
  ];
  for (const [what, set, path] of fields) for (const [cname, v, msg] of chars) spec('control-characters', `${cname} in ${what}`, (s) => set(s, v), path, msg);
  spec('control-characters', 'an OSC hyperlink in a name', (s) => (s.name = '\u001b]8;;http://x\u0007click\u001b]8;;\u0007'), 'name', 'control character U+001B');
  spec('control-characters', 'a carriage return in a task', (s) => (s.studies[0].cases[0].task = 'Show\rINV-7'), `${C0}.task`, 'control character U+000D');
  spec('control-characters', 'DEL in a title', (s) => (s.studies[0].title = 'Sel\u007fection'), `${S0}.title`, 'control character U+007F');
  spec('control-characters', 'NUL in a tool result', (s) => (s.studies[1].cases[0].toolResult = { status: 'x\u0000y' }), `${I0}.toolResult.status`, 'NUL character');
  spec(
    'control-characters',
    'a lone surrogate in fixed-call arguments',
    (s) => (s.studies[1].cases[0].fixedCall.arguments.invoice_id = '\udc00'),
    `${I0}.fixedCall.arguments.invoice_id`,
    'lone surrogate',
  );
  spec(
    'control-characters',
    'NUL in a parameters key',
    (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters.properties['a\u0000b'] = { type: 'string' }),
    `${D0}.parameters.properties.a`,
    'key contains a NUL character',
  );

  // ---- depth
  const deep = (depth: number, arrays = false, where: (s: Any) => void = (s) => (s.studies[1].cases[0].toolResult = '@@RAW@@')) => {
    const s = clone(baseSpec()) as Any;
    where(s);
    return withRaw(s, deepJson(depth, arrays));
  };
  add('spec', 'depth', '10,000-deep nesting in a tool result', deep(10_000), `${I0}.toolResult`, 'deeper than the limit of 64 levels');
  add('spec', 'depth', '10,000-deep arrays in a tool result', deep(10_000, true), `${I0}.toolResult`, 'deeper than the limit of 64 levels');
  add(
    'spec',
    'depth',
    '10,000-deep nesting in a parameters schema',
    deep(10_000, false, (s) => (s.studies[0].conditions[0].tools.invoice.en[0].parameters.properties.invoice_id = '@@RAW@@')),
    `${D0}.parameters.properties`,
    'deeper than the limit of 64 levels',
  );
  add(
    'spec',
    'depth',
    '10,000-deep nesting in expected arguments',
    deep(10_000, false, (s) => (s.studies[0].cases[0].checks[1].expected.arguments.invoice_id = '@@RAW@@')),
    `${C0}.checks.1.expected`,
    'deeper than the limit of 64 levels',
  );
  add('spec', 'depth', '65 levels (one past the limit)', deep(60), `${I0}.toolResult`, 'deeper than the limit of 64 levels');

  // ---- size
  const big = (set: (s: Any) => void) => {
    const s = clone(baseSpec()) as Any;
    set(s);
    return JSON.stringify(s);
  };
  add(
    'spec',
    'size',
    'a 10 MB task',
    big((s) => (s.studies[0].cases[0].task = 'x'.repeat(10 * 1024 * 1024))),
    `${C0}.task`,
    'over the limit of 5 MB',
  );
  add(
    'spec',
    'size',
    'a 6 MB tool result',
    big((s) => (s.studies[1].cases[0].toolResult = { text: 'y'.repeat(6 * 1024 * 1024) })),
    `${I0}.toolResult.text`,
    'over the limit of 5 MB',
  );
  add(
    'spec',
    'size',
    'a 30 MB name (refused unread)',
    big((s) => (s.name = 'z'.repeat(30 * 1024 * 1024))),
    '(input)',
    'over the limit of 5 MB',
  );
  add(
    'spec',
    'size',
    '5 MB of many small cases',
    big((s) => (s.studies[0].cases = Array.from({ length: 9000 }, (_, i) => ({ ...clone(s.studies[0].cases[0]), id: `c${i}`, task: 'w'.repeat(600) })))),
    '(input)',
    'over the limit of 5 MB',
  );

  // ---- case cards (the public TCC format: unknown keys are kept, everything else is checked)
  const card = (family: Family, name: string, mutate: (c: Any) => void, path: string, message: string) => {
    const c = clone(baseCard()) as Any;
    mutate(c);
    add('card', family, name, JSON.stringify(c), path, message);
  };
  const cardText = JSON.stringify(baseCard());
  add('card', 'syntax', 'truncated', cardText.slice(0, -3), '(json)', 'not valid JSON');
  add('card', 'syntax', 'an array', '[]', '(root)', 'expected object');
  add(
    'card',
    'encoding',
    'an invalid byte',
    new Uint8Array([...enc.encode(cardText.slice(0, 30)), 0xff, ...enc.encode(cardText.slice(30))]),
    '(input)',
    'not valid UTF-8',
    false,
  );
  card('types', 'an unknown axis', (c) => (c.checks[0].axis = 'speed'), 'checks.0.axis', 'Invalid option');
  card('types', 'call_count a string', (c) => (c.checks[0].expected.call_count = 'one'), 'checks.0.expected.call_count', 'expected number');
  card('types', 'version 0.2', (c) => (c.tcc_version = '0.2'), 'tcc_version', 'expected');
  card('types', 'checks an object', (c) => (c.checks = {}), 'checks', 'expected array');
  card('limits', 'no checks', (c) => (c.checks = []), 'checks', 'at least one item');
  card('limits', 'a task of 20,001 characters', (c) => (c.task = 't'.repeat(20_001)), 'task', 'at most 20000 characters');
  card('limits', 'a check id of 201 characters', (c) => (c.checks[0].id = 'k'.repeat(201)), 'checks.0.id', 'at most 200 characters');
  card('control-characters', 'an ANSI sequence in case_id', (c) => (c.case_id = '\u001b[2Jcase'), 'case_id', 'control character U+001B');
  card('control-characters', 'NUL in the task', (c) => (c.task = 'a\u0000b'), 'task', 'NUL character');
  card('control-characters', 'a lone surrogate in a check id', (c) => (c.checks[0].id = '\ud83d'), 'checks.0.id', 'lone surrogate');
  card('control-characters', 'C1 in a label', (c) => (c.checks[1].expected = { label: 'X\u0085' }), 'checks.1.expected.label', 'control character U+0085');
  card('control-characters', 'NUL in a kept unknown key', (c) => (c.note = 'a\u0000'), 'note', 'NUL character');
  add(
    'card',
    'depth',
    '10,000-deep expected arguments',
    withRaw({ ...baseCard(), checks: [{ id: 'a', axis: 'call_result', expected: { arguments: '@@RAW@@' } }] }, deepJson(10_000)),
    'checks.0.expected.arguments',
    'deeper than the limit of 64 levels',
  );
  add('card', 'size', 'a 10 MB task', JSON.stringify({ ...baseCard(), task: 'x'.repeat(10 * 1024 * 1024) }), 'task', 'over the limit of 5 MB');
  card(
    'prototype-keys',
    'a __proto__ key in expected (a kept key, but its NUL is not)',
    (c) => (c.checks[0].expected = JSON.parse('{"decision": "read", "__proto__": {"x": "\\u0000"}}')),
    'checks.0.expected.__proto__.x',
    'NUL character',
  );

  // ---- observation files
  const obs = (family: Family, name: string, value: unknown, path: string, message: string) => add('observations', family, name, JSON.stringify(value), path, message);
  add('observations', 'syntax', 'truncated', '{"tool-choice": {', '(json)', 'not valid JSON');
  obs('types', 'an array', [], '(root)', 'expected an object');
  obs('types', 'call_count a string', { 'tool-choice': { call_count: 'one' } }, 'tool-choice.call_count', 'expected number');
  obs('types', 'an entry that is a string', { 'tool-choice': 'read' }, 'tool-choice', 'expected object');
  obs('control-characters', 'NUL in a check id key', { 'tool\u0000choice': { decision: 'read' } }, 'tool', 'key contains a NUL character');
  obs('control-characters', 'ESC in an observed label', { result: { label: '\u001b[31mPAID' } }, 'result.label', 'control character U+001B');
  add(
    'observations',
    'depth',
    '10,000-deep observed arguments',
    withRaw({ arguments: { arguments: '@@RAW@@' } }, deepJson(10_000)),
    'arguments.arguments',
    'deeper than the limit of 64 levels',
  );
  add('observations', 'size', 'a 10 MB label', JSON.stringify({ result: { label: 'L'.repeat(10 * 1024 * 1024) } }), 'result.label', 'over the limit of 5 MB');
  add('observations', 'encoding', 'UTF-16 BE BOM', new Uint8Array([0xfe, 0xff, 0, 0x7b, 0, 0x7d]), '(input)', 'UTF-16', false);
  obs('prototype-keys', 'a __proto__ entry that is not an entry', JSON.parse('{"__proto__": 5}'), '__proto__', 'expected object');
  return out;
}
