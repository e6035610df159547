import { describe, expect, it } from 'vitest';
import { RunSettings } from '../schema/run';
import { recordedRequest, rulesFor, simulate } from '.';
import { simulatedProvider } from '../providers/simulated';
import { extractArguments, readSchema } from './extract';
import type { InterpretationTrace } from './interpret';
import type { SelectionTrace } from './select';
import { tokenize } from './text';
import type { ProviderRequest, WireTool } from '../schema/request';
import { observed } from '../testing/provider-fixtures';
import { observeResult } from '../scoring/answer';

const markers = { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' };
const settings = RunSettings.parse({});

function selection(task: string, tools: WireTool[], locale = 'en'): ProviderRequest {
  return { callsRun: false, locale, system: 'Use a tool when appropriate.', markers, labels: [], tools, task, history: [] };
}
function wire(name: string, description: string, properties: Record<string, unknown>, required: string[] = Object.keys(properties)): WireTool {
  return { name, description, parameters: { type: 'object', properties, required } };
}
const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });

const booking = {
  restaurant_branch: str('Branch.'),
  dining_date: str('Date.'),
  party_size: { type: 'integer', description: 'Size.' },
};

describe('simulatedProvider', () => {
  it('is labelled as a simulation and answers with data, not exceptions', async () => {
    expect(simulatedProvider.descriptor).toMatchObject({ id: 'simulated', label: 'simulated — not a language model', simulated: true });
    const req = selection('Check tables for 2 at Harbour Kitchen, Riverside branch on 2027-05-01.', [wire('a', 'Handles requests.', booking)]);
    const res = await simulatedProvider.send(req, { settings });
    expect(res).toMatchObject({ outcome: 'ok', httpStatus: null, usage: null, latencyMs: 0 });
    // stored as exports have always carried it: the rule set's name as `kind` first, no history for a single answer
    const { callsRun: _run, history, ...rest } = req;
    expect(history).toEqual([]);
    expect(JSON.stringify(res.request)).toBe(JSON.stringify({ kind: 'selection', ...rest }));
    expect(res.response).toMatchObject({ simulated: true, engine: 'simulated-lexical-v1', trace: { scores: expect.any(Array) } });
    expect(observed(observeResult(res, req.markers)).toolCalls[0]).toMatchObject({ name: 'a', arguments: { party_size: 2, dining_date: '2027-05-01' } });
  });

  it('is deterministic: the same request gives the same result', async () => {
    const req = selection('請查詢發票 INV-2027-0042 的付款狀態。', [wire('x', '處理發票相關請求。', { invoice_number: str('發票。') })], 'zh-TW');
    const [a, b] = await Promise.all([simulatedProvider.send(req, { settings }), simulatedProvider.send(structuredClone(req), { settings })]);
    expect(a).toEqual(b);
  });
});

describe('selection: lexical similarity and candidate order', () => {
  const same = 'Handles invoice-related requests.';
  const status = wire('invoice_service', same, { invoice_number: str('Invoice.') });
  const pay = wire('invoice_gateway', same, { invoice_number: str('Invoice.') });

  it('breaks a tie between overlapping definitions by candidate order (first listed wins)', () => {
    const task = 'Please void invoice INV-2027-0107.';
    const first = simulate(selection(task, [status, pay]));
    const second = simulate(selection(task, [pay, status]));
    expect(first.toolCalls[0].name).toBe('invoice_service');
    expect(second.toolCalls[0].name).toBe('invoice_gateway');
    expect((first.trace as SelectionTrace).tie).toMatchObject({ brokenByOrder: true, tied: ['invoice_service', 'invoice_gateway'] });
  });

  it('picks by similarity when the definitions differ, whatever the order', () => {
    const read = wire('get_payment_status', 'Read-only lookup: looks up the payment status of one invoice. It never submits a payment.', {
      invoice_number: str('Invoice number.'),
    });
    const write = wire('submit_payment', 'Write operation: submits a payment for one invoice after the user confirmed it.', { invoice_number: str('Invoice number.') });
    for (const tools of [
      [read, write],
      [write, read],
    ]) {
      expect(simulate(selection('Can you check the payment status of invoice INV-2027-0042?', tools)).toolCalls[0].name).toBe('get_payment_status');
      expect(simulate(selection('I confirm: submit the payment for invoice INV-2027-0042.', tools)).toolCalls[0].name).toBe('submit_payment');
    }
  });

  it('counts a token against a tool whose definition only negates it', () => {
    const read = wire('lookup', 'Looks up tables. It never creates a booking.', booking);
    const other = wire('other', 'Creates table bookings.', booking);
    const trace = simulate(selection('Please book a table.', [read, other])).trace as SelectionTrace;
    expect(trace.scores.find((s) => s.name === 'lookup')?.against).toHaveProperty('book');
    expect(trace.scores.find((s) => s.name === 'other')?.for).toHaveProperty('book');
  });

  it('STOPs only when the definitions say what the tools cannot do', () => {
    const task = 'Please void invoice INV-2027-0107.';
    const limited = wire('submit_payment', 'Submits a payment. It cannot void, cancel or refund an invoice.', { invoice_number: str('Invoice number.') });
    const stop = simulate(selection(task, [limited]));
    expect(stop.toolCalls).toHaveLength(0);
    expect(stop.text).toMatch(/^STOP:/);
    expect((stop.trace as SelectionTrace).stop).toEqual({ action: 'void', deniedBy: ['submit_payment'] });
    expect(simulate(selection(task, [status, pay])).toolCalls).toHaveLength(1);
    // a lone read-only tool that says it never books: asked to book, nothing offers it
    const readOnly = wire('lookup', 'Looks up tables. It never creates a booking.', booking);
    expect(simulate(selection('Please book a table.', [readOnly])).text).toMatch(/^STOP:/);
    const zh = wire('submit_payment', '為發票送出付款。此工具無法作廢或取消發票。', { invoice_number: str('發票號碼。') });
    expect(simulate(selection('請幫我把發票 INV-2027-0107 作廢。', [zh], 'zh-TW')).text).toMatch(/^STOP:/);
  });
});

describe('selection: CLARIFY only when the definition says to ask', () => {
  const task = 'Please book a table for 2 at Sea Breeze Eatery on 14 February 2027.';

  it('calls anyway, inventing "main branch", when the definition does not say to ask', () => {
    const out = simulate(selection(task, [wire('restaurant_service', 'Handles restaurant booking requests.', booking)]));
    expect(out.toolCalls[0].arguments).toEqual({ restaurant_branch: 'main branch', dining_date: '2027-02-14', party_size: 2 });
    expect((out.trace as SelectionTrace).extraction).toMatchObject({ missing: ['restaurant_branch'], invented: { restaurant_branch: 'main branch' } });
  });

  it('replies CLARIFY with no call when the description says to ask for a missing field', () => {
    const asks = wire('create_booking', 'Creates a booking. If a required field is missing, ask first: reply "CLARIFY: …".', booking);
    const out = simulate(selection(task, [asks]));
    expect(out.toolCalls).toHaveLength(0);
    expect(out.text).toMatch(/^CLARIFY: .*restaurant branch/);
  });

  it("also when only that field's description says so, and in Chinese", () => {
    const fieldAsks = wire('create_booking', 'Creates a booking.', { ...booking, restaurant_branch: str('Branch name; if it is missing, ask the user.') });
    expect(simulate(selection(task, [fieldAsks])).toolCalls).toHaveLength(0);
    const zh = wire('create_booking', '建立訂位。若使用者的需求缺少任何欄位，請先回覆「CLARIFY: …」詢問。', booking);
    const out = simulate(selection('請幫我在海風餐館訂 2027年2月14日 2 位的位子。', [zh], 'zh-TW'));
    expect(out.text).toBe('CLARIFY: 要使用 create_booking，還需要您提供：restaurant_branch。');
  });

  it('does not ask when nothing is missing', () => {
    const asks = wire('create_booking', 'Creates a booking. If a required field is missing, ask first.', booking);
    const out = simulate(selection('Book a table for 2 at Sea Breeze Eatery, Xinyi branch on 14 February 2027.', [asks]));
    expect(out.toolCalls[0].arguments.restaurant_branch).toBe('Sea Breeze Eatery, Xinyi branch');
  });
});

describe('schema-guided extraction', () => {
  const full = readSchema({
    type: 'object',
    properties: {
      restaurant_branch: str('Full branch name.'),
      dining_date: str('Dining date, YYYY-MM-DD.', { format: 'date' }),
      dining_time: str('Start time, HH:MM.'),
      party_size: { type: 'integer', description: 'Number of diners.' },
    },
    required: ['restaurant_branch', 'dining_date', 'dining_time', 'party_size'],
  });
  const invoice = readSchema({
    type: 'object',
    properties: {
      invoice_number: str('Invoice number.', { pattern: '^INV-\\d{4}-\\d{4}$' }),
      amount: { type: 'number', description: 'Amount to pay in TWD.' },
      payment_method: str('付款方式：bank_transfer（銀行轉帳）或 credit_card（信用卡）。', { enum: ['bank_transfer', 'credit_card'] }),
    },
    required: ['invoice_number', 'amount', 'payment_method'],
  });

  it('tokenises CJK as character bigrams and English as stems', () => {
    expect(tokenize('查詢空位')).toEqual(['查詢', '詢空', '空位']);
    expect(tokenize('The bookings are available')).toEqual(['book', 'avail']);
  });

  it('reads Chinese dates, times, counts and branch names', () => {
    const r = extractArguments('好，請幫我在海風餐館信義店訂 2027年1月15日晚上7點半、4 位的位子。', full);
    expect(r.args).toEqual({ restaurant_branch: '海風餐館信義店', dining_date: '2027-01-15', dining_time: '19:30', party_size: 4 });
    expect(r.missing).toEqual([]);
    expect(extractArguments('我確認：在海風餐館板橋店預訂 2027年3月20日中午12點半、六位。', full).args).toMatchObject({
      restaurant_branch: '海風餐館板橋店',
      dining_time: '12:30',
      party_size: 6,
    });
  });

  it('reads English dates in several forms, 12-hour times and number words', () => {
    expect(extractArguments('Book Sea Breeze Eatery, Xinyi branch for four people on January 15, 2027 at 7:30 pm.', full).args).toEqual({
      restaurant_branch: 'Sea Breeze Eatery, Xinyi branch',
      dining_date: '2027-01-15',
      dining_time: '19:30',
      party_size: 4,
    });
    expect(extractArguments('a table on 3 February 2027 at 12:30 for 2', full).args).toMatchObject({ dining_date: '2027-02-03', party_size: 2 });
  });

  it('reads ids by the schema pattern, amounts by their currency cue and enums by value or gloss', () => {
    expect(extractArguments('請用銀行轉帳支付發票 INV-2027-0042 的全額 12,500 元。', invoice).args).toEqual({
      invoice_number: 'INV-2027-0042',
      amount: 12500,
      payment_method: 'bank_transfer',
    });
    expect(extractArguments('Pay 3,180 TWD by credit card for invoice INV-2027-0091.', invoice).args).toEqual({
      invoice_number: 'INV-2027-0091',
      amount: 3180,
      payment_method: 'credit_card',
    });
    expect(extractArguments('Pay my latest invoice, 4,600 TWD.', invoice).missing).toEqual(['invoice_number', 'payment_method']);
  });
});

describe('the stored request keeps the form exports carry', () => {
  const tool = wire('find_available_tables', 'Looks up tables.', booking);
  const base = { locale: 'en', system: 's', markers, labels: ['AVAILABLE'], tools: [tool], task: 'Is there a table?' };
  it("an injected step is stored as `interpretation: {call, result}`, a conversation's turns as `history`", () => {
    const call = { name: tool.name, arguments: { party_size: 2 } };
    const injected = recordedRequest({
      callsRun: false,
      ...base,
      history: [{ text: null, calls: [call], results: [{ name: tool.name, result: { status_code: 12 } }] }],
    });
    expect(JSON.stringify(injected)).toBe(JSON.stringify({ kind: 'interpretation', ...base, interpretation: { call, result: { status_code: 12 } } }));
    const turn = { text: null, calls: [{ id: 'c1', ...call }], results: [{ id: 'c1', name: tool.name, result: { isError: false, content: {} }, isError: false }] };
    const stored = { text: null, calls: [{ id: 'c1', ...call }], results: [{ id: 'c1', name: tool.name, result: { isError: false, content: {} } }] };
    expect(JSON.stringify(recordedRequest({ callsRun: true, ...base, history: [turn], turn: 2 }))).toBe(JSON.stringify({ kind: 'task', ...base, history: [stored] }));
    expect(JSON.stringify(recordedRequest({ callsRun: true, ...base, history: [], turn: 1 }))).toBe(JSON.stringify({ kind: 'task', ...base, history: [] }));
    // a pre-check is no conversation: stored without history
    expect(JSON.stringify(recordedRequest({ callsRun: true, ...base, history: [] }))).toBe(JSON.stringify({ kind: 'task', ...base }));
  });
});

describe('the rule set is chosen by what the simulator is sent, never by a kind', () => {
  const tool = wire('find_available_tables', 'Looks up tables.', booking);
  const base = { locale: 'en', system: 's', markers, labels: [], tools: [tool], task: 'Is there a table for 2 at Riverside on 2027-05-01?' };
  const looked = { text: null, calls: [{ name: tool.name, arguments: {} }], results: [{ name: tool.name, result: { status_code: 12 } }] };
  it('calls that are run: the task rules, whatever the transcript; one answer: interpretation after a transcript, else selection', () => {
    expect(rulesFor({ ...base, callsRun: true, history: [] })).toBe('task');
    expect(rulesFor({ ...base, callsRun: true, history: [looked], turn: 2 })).toBe('task');
    expect(rulesFor({ ...base, callsRun: false, history: [looked] })).toBe('interpretation');
    expect(rulesFor({ ...base, callsRun: false, history: [] })).toBe('selection');
    // the answer and its record name the same rule set
    for (const r of [
      { ...base, callsRun: true, history: [] },
      { ...base, callsRun: false, history: [looked] },
      { ...base, callsRun: false, history: [] },
    ]) {
      expect(simulate(r).kind).toBe(rulesFor(r));
      expect((recordedRequest(r) as { kind: string }).kind).toBe(rulesFor(r));
    }
  });
});

describe('interpretation: codes are mapped only when their meanings are defined', () => {
  const labels = ['AVAILABLE', 'NO_SLOTS', 'TIMEOUT', 'PAID', 'PENDING', 'FAILED', 'CANNOT_DETERMINE', 'ERROR'];
  const system = 'For find_available_tables the labels are AVAILABLE, NO_SLOTS and TIMEOUT; for get_payment_status PAID, PENDING and FAILED.';
  function interp(description: string, code: number, locale = 'en'): { label: string | null; rule: string } {
    const tool = wire('find_available_tables', description, booking);
    const req: ProviderRequest = {
      callsRun: false,
      locale,
      system,
      markers,
      labels,
      tools: [tool],
      task: 'Is there a table?',
      history: [{ text: null, calls: [{ name: tool.name, arguments: {} }], results: [{ name: tool.name, result: { status_code: code, party_size: 4 } }] }],
    };
    const out = simulate(req);
    expect(out.text?.startsWith(`STATUS: ${out.label}`)).toBe(true);
    return { label: out.label, rule: (out.trace as InterpretationTrace).rule };
  }
  const meanings = 'Looks up tables. status_code is one of: 12 = AVAILABLE (free); 17 = TIMEOUT (no answer); 23 = NO_SLOTS (full). Any other code is an error.';

  it('maps defined codes, in English and Chinese list styles, and calls unlisted codes errors', () => {
    expect(interp(meanings, 17)).toEqual({ label: 'TIMEOUT', rule: 'defined-meaning' });
    expect(interp(meanings, 23).label).toBe('NO_SLOTS');
    expect(interp(meanings, 47)).toEqual({ label: 'ERROR', rule: 'not-in-defined-list' });
    expect(interp('查詢空位。status_code 只會是下列其中之一：12：AVAILABLE（有空位）；17：timeout（逾時）。', 17, 'zh-TW').label).toBe('TIMEOUT');
  });

  it('without meanings: out of range → ERROR, low third → first label, middle → CANNOT_DETERMINE, high → last', () => {
    const bare = 'Looks up tables. The result carries status_code, an integer from 10 to 39.';
    expect(interp(bare, 47)).toEqual({ label: 'ERROR', rule: 'outside-stated-range' });
    expect(interp(bare, 17)).toEqual({ label: 'AVAILABLE', rule: 'positional-guess' });
    expect(interp(bare, 23)).toEqual({ label: 'CANNOT_DETERMINE', rule: 'positional-abstain' });
    expect(interp(bare, 36)).toEqual({ label: 'TIMEOUT', rule: 'positional-guess' });
    expect(interp('查詢空位。回傳結果包含 status_code（介於 10 到 39 之間的整數）。', 5, 'zh-TW').label).toBe('ERROR');
    expect(interp('Looks up tables and returns a status code.', 17)).toEqual({ label: 'CANNOT_DETERMINE', rule: 'no-definition' });
  });
});
