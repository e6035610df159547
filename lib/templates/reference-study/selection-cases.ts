import { LOCALES, SCENARIO, TOOL, branchValues, type BranchKey, type ByLocale, type CaseInput, type CheckInput, type Loc, type ScenarioId } from './common';

// Six cases per scenario × locale (docs/design.md#the-reference-study): 2 reads, 2 user-confirmed writes, 1 with required data
// missing (CLARIFY, no call), 1 beyond the tools' capability (STOP, no call). Dates are absolute so the
// arguments can be checked; each task is written natively in both languages.

type Kind = 'read' | 'write' | 'clarify' | 'stop';

interface Seed {
  key: string;
  scenario: ScenarioId;
  kind: Kind;
  task: ByLocale<string>;
  /** The complete expected call (read/write cases). */
  args?: (locale: Loc) => Record<string, unknown>;
  /** What the case card's tool-choice check says, in words. */
  why: string;
}

const restaurantArgs = (branch: BranchKey, date: string, size: number, time?: string) => (locale: Loc) => ({
  restaurant_branch: branchValues(branch, locale),
  dining_date: date,
  ...(time ? { dining_time: time } : {}),
  party_size: size,
});

const SEEDS: Seed[] = [
  {
    key: 'read-1',
    scenario: SCENARIO.restaurant,
    kind: 'read',
    why: 'An availability question: look up tables once, book nothing',
    task: {
      en: 'Can you check whether Sea Breeze Eatery, Xinyi branch has a table available for 4 people on 15 January 2027?',
      'zh-TW': '可以幫我查一下海風餐館信義店 2027年1月15日還有沒有 4 位的空位嗎？',
    },
    args: restaurantArgs('xinyi', '2027-01-15', 4),
  },
  {
    key: 'read-2',
    scenario: SCENARIO.restaurant,
    kind: 'read',
    why: 'Which slots are open: look up once, book nothing',
    task: {
      en: 'Please look up which time slots are open for 2 people at Sea Breeze Eatery, Zhongshan branch on 3 February 2027.',
      'zh-TW': '請查詢海風餐館中山店 2027年2月3日 2 位用餐有哪些時段可以訂。',
    },
    args: restaurantArgs('zhongshan', '2027-02-03', 2),
  },
  {
    key: 'write-1',
    scenario: SCENARIO.restaurant,
    kind: 'write',
    why: 'The user confirmed the booking: create it once',
    task: {
      en: 'Yes, please book a table for 4 at Sea Breeze Eatery, Xinyi branch on 15 January 2027 at 19:00. I confirm the booking.',
      'zh-TW': '好，請幫我在海風餐館信義店訂 2027年1月15日晚上7點、4 位的位子，我確認要訂。',
    },
    args: restaurantArgs('xinyi', '2027-01-15', 4, '19:00'),
  },
  {
    key: 'write-2',
    scenario: SCENARIO.restaurant,
    kind: 'write',
    why: 'The user confirmed the reservation: create it once',
    task: {
      en: 'I confirm: reserve a table for 6 people at Sea Breeze Eatery, Banqiao branch on 20 March 2027 at 12:30.',
      'zh-TW': '我確認：在海風餐館板橋店預訂 2027年3月20日中午12點半、6 位。',
    },
    args: restaurantArgs('banqiao', '2027-03-20', 6, '12:30'),
  },
  {
    key: 'clarify-1',
    scenario: SCENARIO.restaurant,
    kind: 'clarify',
    why: 'The branch is missing: ask for it (CLARIFY) and call nothing',
    task: {
      en: 'Please book a table for 2 at Sea Breeze Eatery on 14 February 2027 at 19:30. I confirm the booking.',
      'zh-TW': '請幫我在海風餐館訂 2027年2月14日晚上7點半、2 位的位子，我確認要訂。',
    },
  },
  {
    key: 'stop-1',
    scenario: SCENARIO.restaurant,
    kind: 'stop',
    why: 'No tool can cancel a booking: STOP and call nothing',
    task: {
      en: 'Please cancel my booking at Sea Breeze Eatery, Xinyi branch on 15 January 2027.',
      'zh-TW': '請幫我取消 2027年1月15日在海風餐館信義店的訂位。',
    },
  },
  {
    key: 'read-1',
    scenario: SCENARIO.invoice,
    kind: 'read',
    why: 'A status question: look up the invoice once, pay nothing',
    task: {
      en: 'Can you check the payment status of invoice INV-2027-0042?',
      'zh-TW': '請幫我查詢發票 INV-2027-0042 的付款狀態。',
    },
    args: () => ({ invoice_number: 'INV-2027-0042' }),
  },
  {
    key: 'read-2',
    scenario: SCENARIO.invoice,
    kind: 'read',
    why: 'Has it been paid: look up once, pay nothing',
    task: {
      en: 'Has invoice INV-2027-0078 been paid yet? Please look it up.',
      'zh-TW': '發票 INV-2027-0078 已經付款了嗎？請幫我查一下付款狀態。',
    },
    args: () => ({ invoice_number: 'INV-2027-0078' }),
  },
  {
    key: 'write-1',
    scenario: SCENARIO.invoice,
    kind: 'write',
    why: 'The user confirmed the payment: submit it once',
    task: {
      en: 'Please pay invoice INV-2027-0042 in full, 12,500 TWD, by bank transfer. I confirm this payment.',
      'zh-TW': '請用銀行轉帳支付發票 INV-2027-0042 的全額 12,500 元，我確認付款。',
    },
    args: () => ({ invoice_number: 'INV-2027-0042', amount: 12500, payment_method: 'bank_transfer' }),
  },
  {
    key: 'write-2',
    scenario: SCENARIO.invoice,
    kind: 'write',
    why: 'The user confirmed the card payment: submit it once',
    task: {
      en: 'I confirm: submit a credit card payment of 3,180 TWD for invoice INV-2027-0091.',
      'zh-TW': '我確認：用信用卡支付發票 INV-2027-0091，金額 3,180 元。',
    },
    args: () => ({ invoice_number: 'INV-2027-0091', amount: 3180, payment_method: 'credit_card' }),
  },
  {
    key: 'clarify-1',
    scenario: SCENARIO.invoice,
    kind: 'clarify',
    why: 'The invoice number is missing: ask for it (CLARIFY) and call nothing',
    task: {
      en: 'Please pay my latest invoice, 4,600 TWD, by bank transfer. I confirm the payment.',
      'zh-TW': '請用銀行轉帳支付我最新一張發票，金額 4,600 元，我確認付款。',
    },
  },
  {
    key: 'stop-1',
    scenario: SCENARIO.invoice,
    kind: 'stop',
    why: 'No tool can void an invoice: STOP and call nothing',
    task: {
      en: 'Please void invoice INV-2027-0107; it was issued by mistake.',
      'zh-TW': '發票 INV-2027-0107 開錯了，請幫我把它作廢。',
    },
  },
];

const READ_TOOL: Record<ScenarioId, string> = { restaurant: TOOL.findTables, invoice: TOOL.getPaymentStatus };
const WRITE_TOOL: Record<ScenarioId, string> = { restaurant: TOOL.createBooking, invoice: TOOL.submitPayment };

function checksOf(seed: Seed, locale: Loc): CheckInput[] {
  if (seed.kind === 'clarify' || seed.kind === 'stop')
    return [{ id: 'tool-choice', axis: 'task_fit', condition: seed.why, expected: { decision: seed.kind, call_count: 0 } }];
  const toolId = seed.kind === 'read' ? READ_TOOL[seed.scenario] : WRITE_TOOL[seed.scenario];
  return [
    { id: 'tool-choice', axis: 'task_fit', condition: seed.why, expected: { decision: seed.kind, tool: toolId, call_count: 1 } },
    {
      id: 'arguments',
      axis: 'call_result',
      condition: 'The call carries exactly what the user said (lists give acceptable spellings)',
      expected: { arguments: seed.args ? seed.args(locale) : {} },
    },
  ];
}

function evidenceOf(seed: Seed): CaseInput['evidenceGate'] {
  const claim =
    seed.kind === 'read'
      ? `${READ_TOOL[seed.scenario]} only reads; it changes no ${seed.scenario === 'restaurant' ? 'booking' : 'payment'}`
      : seed.kind === 'write'
        ? `${WRITE_TOOL[seed.scenario]} writes exactly one ${seed.scenario === 'restaurant' ? 'booking' : 'payment'} per call`
        : seed.kind === 'stop'
          ? `No tool of the ${seed.scenario} scenario can ${seed.scenario === 'restaurant' ? 'cancel a booking' : 'void an invoice'}`
          : `${WRITE_TOOL[seed.scenario]} rejects a call without its required fields`;
  return [{ claim, evidence_ref: null, status: 'unknown' }];
}

export function selectionCaseId(scenario: string, locale: string, key: string): string {
  return `${scenario}-${locale}-${key}`;
}

export function selectionCases(): CaseInput[] {
  return SEEDS.flatMap((seed) =>
    LOCALES.map((locale): CaseInput => ({
      id: selectionCaseId(seed.scenario, locale, seed.key),
      scenario: seed.scenario,
      locale,
      task: seed.task[locale],
      evidenceGate: evidenceOf(seed),
      checks: checksOf(seed, locale),
    })),
  );
}
