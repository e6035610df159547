import {
  BRANCH,
  CONDITION,
  LOCALES,
  SCENARIO,
  TOOL,
  tool,
  type ByLocale,
  type CaseInput,
  type Loc,
  type ScenarioId,
  type ToolDefinitionInput,
  type ToolsByScenario,
} from './common';
import { CANNOT_DETERMINE, ERROR_LABEL } from './protocols';

// The interpretation study: the lookup call is fixed and a result with a status code is injected.
// 3 valid statuses × 2 numeric codes + 1 out-of-range code = 7 cases per scenario × locale. The two
// conditions differ only in whether the lookup tool's description lists what each code means.

interface CodeMeaning {
  code: number;
  label: string;
  meaning: ByLocale<string>;
}

interface ScenarioCodes {
  range: [number, number];
  outOfRange: number;
  codes: CodeMeaning[];
}

/** Codes are spread over the stated range; 17 means TIMEOUT, as in seed 000. Listed in code order. */
export const STATUS_CODES: Record<ScenarioId, ScenarioCodes> = {
  restaurant: {
    range: [10, 39],
    outOfRange: 47,
    codes: [
      { code: 12, label: 'AVAILABLE', meaning: { en: 'at least one slot is free', 'zh-TW': '至少有一個空位時段' } },
      {
        code: 17,
        label: 'TIMEOUT',
        meaning: { en: 'the reservation system did not answer in time: a tool error, not availability', 'zh-TW': '訂位系統逾時未回應，屬於工具錯誤，不代表有空位' },
      },
      { code: 23, label: 'NO_SLOTS', meaning: { en: 'the lookup succeeded but no table is free', 'zh-TW': '查詢成功，但沒有空桌' } },
      { code: 28, label: 'TIMEOUT', meaning: { en: 'the request to the reservation system expired', 'zh-TW': '對訂位系統的請求已逾時' } },
      { code: 31, label: 'AVAILABLE', meaning: { en: 'slots are free and the waiting list is open too', 'zh-TW': '有空位，也開放候補' } },
      { code: 36, label: 'NO_SLOTS', meaning: { en: 'the branch is fully booked that day', 'zh-TW': '當天已全部訂滿' } },
    ],
  },
  invoice: {
    range: [40, 69],
    outOfRange: 81,
    codes: [
      { code: 41, label: 'PAID', meaning: { en: 'the invoice is fully paid', 'zh-TW': '已全額付清' } },
      { code: 48, label: 'PENDING', meaning: { en: 'a payment was submitted and is being processed', 'zh-TW': '付款已送出，處理中' } },
      { code: 52, label: 'FAILED', meaning: { en: 'the payment was declined', 'zh-TW': '付款遭拒' } },
      { code: 56, label: 'PAID', meaning: { en: 'paid, and the receipt has been issued', 'zh-TW': '已付款，收據已開立' } },
      { code: 63, label: 'PENDING', meaning: { en: 'waiting for the bank to confirm the transfer', 'zh-TW': '等待銀行確認轉帳' } },
      { code: 67, label: 'FAILED', meaning: { en: 'the bank reversed the payment', 'zh-TW': '銀行已退回這筆付款' } },
    ],
  },
};

const TEXT = {
  en: {
    restaurant: 'Read-only lookup: finds the available time slots at one restaurant branch for a dining date and party size.',
    invoice: 'Read-only lookup: looks up the current payment status of one invoice.',
    restaurantRange: (lo: number, hi: number) => `The result carries status_code, an integer from ${lo} to ${hi}, together with the query it answered.`,
    invoiceRange: (lo: number, hi: number) => `The result carries status_code, an integer from ${lo} to ${hi}, together with the invoice number it answered for.`,
    restaurantCarries: 'The result carries status_code together with the query it answered.',
    invoiceCarries: 'The result carries status_code together with the invoice number it answered for.',
    list: (entries: string) => `status_code is one of: ${entries}. Any other code is an error.`,
    entry: (c: CodeMeaning) => `${c.code} = ${c.label} (${c.meaning.en})`,
    sep: '; ',
    branch: 'Full branch name as the user gave it (restaurant and branch).',
    date: 'Dining date, YYYY-MM-DD.',
    size: 'Number of diners, children included.',
    invoiceNumber: 'Invoice number exactly as printed on the invoice.',
  },
  'zh-TW': {
    restaurant: '唯讀查詢：依分店、用餐日期與人數，查出該分店可以訂位的空位時段。',
    invoice: '唯讀查詢：查出一張發票目前的付款狀態。',
    restaurantRange: (lo: number, hi: number) => `回傳結果包含 status_code（介於 ${lo} 到 ${hi} 之間的整數）以及對應的查詢條件。`,
    invoiceRange: (lo: number, hi: number) => `回傳結果包含 status_code（介於 ${lo} 到 ${hi} 之間的整數）以及對應的發票號碼。`,
    restaurantCarries: '回傳結果包含 status_code 以及對應的查詢條件。',
    invoiceCarries: '回傳結果包含 status_code 以及對應的發票號碼。',
    list: (entries: string) => `status_code 只會是下列其中之一：${entries}。其他代碼一律視為錯誤。`,
    entry: (c: CodeMeaning) => `${c.code} = ${c.label}（${c.meaning['zh-TW']}）`,
    sep: '；',
    branch: '使用者提供的完整分店名稱（餐廳名稱加分店）。',
    date: '用餐日期，格式為 YYYY-MM-DD。',
    size: '用餐人數（含孩童）。',
    invoiceNumber: '發票上印的完整發票號碼。',
  },
};

function lookupTool(scenario: ScenarioId, locale: Loc, withMeanings: boolean): ToolDefinitionInput {
  const t = TEXT[locale];
  const { range, codes } = STATUS_CODES[scenario];
  const list = withMeanings ? ` ${t.list(codes.map(t.entry).join(t.sep))}` : '';
  if (scenario === SCENARIO.restaurant) {
    const carries = withMeanings ? t.restaurantCarries : t.restaurantRange(...range);
    return tool(
      TOOL.findTables,
      'find_available_tables',
      `${t.restaurant} ${carries}${list}`.replace(/。 /g, '。'),
      {
        restaurant_branch: { type: 'string', description: t.branch },
        dining_date: { type: 'string', format: 'date', description: t.date },
        party_size: { type: 'integer', minimum: 1, description: t.size },
      },
      ['restaurant_branch', 'dining_date', 'party_size'],
    );
  }
  const carries = withMeanings ? t.invoiceCarries : t.invoiceRange(...range);
  return tool(
    TOOL.getPaymentStatus,
    'get_payment_status',
    `${t.invoice} ${carries}${list}`.replace(/。 /g, '。'),
    { invoice_number: { type: 'string', pattern: '^INV-\\d{4}-\\d{4}$', description: t.invoiceNumber } },
    ['invoice_number'],
  );
}

export function interpretationTools(withMeanings: boolean): ToolsByScenario {
  const out: ToolsByScenario = {};
  for (const scenario of [SCENARIO.restaurant, SCENARIO.invoice]) {
    out[scenario] = Object.fromEntries(LOCALES.map((l) => [l, [lookupTool(scenario, l, withMeanings)]]));
  }
  return out;
}

const TASK: Record<ScenarioId, ByLocale<string>> = {
  restaurant: {
    en: 'Is there a table for 4 at Sea Breeze Eatery, Xinyi branch on 15 January 2027?',
    'zh-TW': '海風餐館信義店 2027年1月15日還有 4 位的空位嗎？',
  },
  invoice: { en: 'Has invoice INV-2027-0042 been paid?', 'zh-TW': '發票 INV-2027-0042 付款了嗎？' },
};

function fixedArguments(scenario: ScenarioId, locale: Loc): Record<string, unknown> {
  if (scenario === SCENARIO.restaurant) return { restaurant_branch: locale === 'en' ? BRANCH.xinyi.en : BRANCH.xinyi.zh, dining_date: '2027-01-15', party_size: 4 };
  return { invoice_number: 'INV-2027-0042' };
}

export function interpretationCaseId(scenario: string, locale: string, code: number): string {
  return `${scenario}-${locale}-code-${code}`;
}

/**
 * The expected label depends on the condition: with code meanings, the defined label; without them, only
 * CANNOT_DETERMINE is justified. A case card has one set of checks for every condition, so the `result`
 * check carries the defined label in `expected`, and the case's `expectByCondition` gives the baseline's
 * expectation (resolved per condition by `checksFor`). An out-of-range code is ERROR in both conditions.
 */
export function interpretationCases(): CaseInput[] {
  const out: CaseInput[] = [];
  for (const scenario of [SCENARIO.restaurant, SCENARIO.invoice]) {
    const { codes, outOfRange, range } = STATUS_CODES[scenario];
    const tool = scenario === SCENARIO.restaurant ? TOOL.findTables : TOOL.getPaymentStatus;
    for (const locale of LOCALES) {
      const args = fixedArguments(scenario, locale);
      const make = (code: number, checks: CaseInput['checks'], expectByCondition: CaseInput['expectByCondition'] = {}): CaseInput => ({
        id: interpretationCaseId(scenario, locale, code),
        scenario,
        locale,
        task: TASK[scenario][locale],
        fixedCall: { tool, arguments: args },
        toolResult: { status_code: code, ...args },
        checks,
        expectByCondition,
      });
      for (const c of codes)
        out.push(
          make(
            c.code,
            [
              {
                id: 'result',
                axis: 'call_result',
                condition: `Code ${c.code} means ${c.label}; without the code meanings only ${CANNOT_DETERMINE} is justified`,
                expected: { label: c.label },
              },
            ],
            { [CONDITION.noCodeMeanings]: { result: { label: CANNOT_DETERMINE } } },
          ),
        );
      out.push(
        make(outOfRange, [
          {
            id: 'result',
            axis: 'call_result',
            condition: `Code ${outOfRange} is outside ${range[0]}–${range[1]} and not a defined code: an error in both conditions`,
            expected: { label: ERROR_LABEL },
          },
        ]),
      );
    }
  }
  return out;
}
