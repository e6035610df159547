import { TOOL, tool, type ToolDefinitionInput, type ToolsByScenario } from './common';

/** One locale's definitions, per scenario. */
type ScenarioTools = Record<'restaurant' | 'invoice', ToolDefinitionInput[]>;

// Tool definitions of the selection study, written natively in English and Traditional Chinese.
// Property names are the same in both conditions (so one case card checks both); what changes is the
// tool names, the descriptions and the parameter descriptions/constraints.

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const TIME_PATTERN = '^([01]\\d|2[0-3]):[0-5]\\d$';
const INVOICE_PATTERN = '^INV-\\d{4}-\\d{4}$';

// ── overlapping (baseline): both tools described alike, vague parameters, no read/write boundary ────────

const OVERLAP = {
  en: {
    restaurant: 'Handles restaurant booking requests.',
    invoice: 'Handles invoice-related requests.',
    branch: 'Branch.',
    date: 'Date.',
    time: 'Time.',
    size: 'Size.',
    invoiceNumber: 'Invoice.',
    amount: 'Amount.',
    method: 'Method.',
  },
  'zh-TW': {
    restaurant: '處理餐廳訂位相關請求。',
    invoice: '處理發票相關請求。',
    branch: '分店。',
    date: '日期。',
    time: '時間。',
    size: '人數。',
    invoiceNumber: '發票。',
    amount: '金額。',
    method: '方式。',
  },
};

function overlappingFor(t: (typeof OVERLAP)['en']): ScenarioTools {
  const branch = { type: 'string', description: t.branch };
  const date = { type: 'string', description: t.date };
  const size = { type: 'integer', description: t.size };
  const invoiceNumber = { type: 'string', description: t.invoiceNumber };
  return {
    restaurant: [
      tool(TOOL.findTables, 'restaurant_service', t.restaurant, { restaurant_branch: branch, dining_date: date, party_size: size }, [
        'restaurant_branch',
        'dining_date',
        'party_size',
      ]),
      tool(
        TOOL.createBooking,
        'restaurant_gateway',
        t.restaurant,
        { restaurant_branch: branch, dining_date: date, dining_time: { type: 'string', description: t.time }, party_size: size },
        ['restaurant_branch', 'dining_date', 'dining_time', 'party_size'],
      ),
    ],
    invoice: [
      tool(TOOL.getPaymentStatus, 'invoice_service', t.invoice, { invoice_number: invoiceNumber }, ['invoice_number']),
      tool(
        TOOL.submitPayment,
        'invoice_gateway',
        t.invoice,
        {
          invoice_number: invoiceNumber,
          amount: { type: 'number', description: t.amount },
          payment_method: { type: 'string', description: t.method },
        },
        ['invoice_number', 'amount', 'payment_method'],
      ),
    ],
  };
}

// ── clear (treatment): read-only vs write stated, confirmation, required fields, ask-first, limits → STOP ──

const CLEAR = {
  en: {
    findTables:
      "Read-only lookup: finds the available time slots at one restaurant branch for a dining date and party size, and returns them with the branch's time zone. " +
      'It never creates, changes or cancels a booking. ' +
      'All three fields are required; if any of them is missing from the user\'s request, do not call this tool: ask first and reply "CLARIFY: …" naming the missing field.',
    createBooking:
      "Write operation: creates a new table booking at one restaurant branch and holds the table under the user's name. " +
      'Call it only after the user has explicitly confirmed the booking (date, time and party size). ' +
      'All four fields are required; if any of them is missing from the user\'s request, do not call this tool: ask first and reply "CLARIFY: …" naming the missing field. ' +
      'It cannot cancel, change or refund an existing booking, and no other tool can either: for such requests reply "STOP: …".',
    getPaymentStatus:
      'Read-only lookup: looks up the current payment status of one invoice (paid, pending or failed) and the amount still due. ' +
      'It never submits, changes or voids a payment. ' +
      'invoice_number is required; if it is missing from the user\'s request, do not call this tool: ask first and reply "CLARIFY: …" asking for the invoice number.',
    submitPayment:
      'Write operation: submits a payment for one invoice and charges the payment method the user chose. ' +
      'Call it only after the user has explicitly confirmed the payment (invoice, amount and method). ' +
      'invoice_number, amount and payment_method are required; if any of them is missing from the user\'s request, do not call this tool: ask first and reply "CLARIFY: …" naming the missing field. ' +
      'It cannot void, cancel or refund an invoice or a payment, and no other tool can either: for such requests reply "STOP: …".',
    branch: 'Full branch name as the user gave it (restaurant and branch), e.g. "Harbour Kitchen, Riverside branch".',
    date: "Dining date in the branch's local calendar, YYYY-MM-DD.",
    time: "Start time in the branch's local time, HH:MM (24-hour clock).",
    size: 'Number of diners, children included; a positive integer.',
    invoiceNumber: 'Invoice number exactly as printed on the invoice, e.g. INV-2026-0001.',
    amount: 'Amount to pay in TWD, as a plain number (e.g. 1250 or 1250.5).',
    method: 'How the user pays: bank_transfer (bank transfer) or credit_card (credit card).',
  },
  'zh-TW': {
    findTables:
      '唯讀查詢：依分店、用餐日期與人數，查出該分店可以訂位的空位時段，並附上分店所在的時區。' +
      '不會建立、修改或取消任何訂位。' +
      '三個欄位都是必填；若使用者的需求缺少其中任何一項，請不要呼叫此工具，先回覆「CLARIFY: …」詢問缺少的欄位。',
    createBooking:
      '寫入操作：在指定分店建立一筆新的訂位，並以使用者的名義保留座位。' +
      '只有在使用者明確確認訂位內容（日期、時間與人數）後才能呼叫。' +
      '四個欄位都是必填；若使用者的需求缺少其中任何一項，請不要呼叫此工具，先回覆「CLARIFY: …」詢問缺少的欄位。' +
      '此工具不能取消、更改既有訂位或退款，其他工具也都不能；遇到這類要求請回覆「STOP: …」。',
    getPaymentStatus:
      '唯讀查詢：查出一張發票目前的付款狀態（已付款、處理中或失敗）以及尚未付清的金額。' +
      '不會送出、修改或作廢任何付款。' +
      'invoice_number 為必填；若使用者的需求沒有提供發票號碼，請不要呼叫此工具，先回覆「CLARIFY: …」詢問發票號碼。',
    submitPayment:
      '寫入操作：為一張發票送出付款，並向使用者選擇的付款方式扣款。' +
      '只有在使用者明確確認付款內容（發票、金額與付款方式）後才能呼叫。' +
      'invoice_number、amount 與 payment_method 都是必填；若使用者的需求缺少其中任何一項，請不要呼叫此工具，先回覆「CLARIFY: …」詢問缺少的欄位。' +
      '此工具無法作廢或取消發票與付款，也無法退款，其他工具也都不能；遇到這類要求請回覆「STOP: …」。',
    branch: '使用者提供的完整分店名稱（餐廳名稱加分店），例如「港灣廚房河濱店」。',
    date: '用餐日期，以分店當地的日期表示，格式為 YYYY-MM-DD。',
    time: '用餐開始時間，以分店當地時間表示，格式為 HH:MM（24 小時制）。',
    size: '用餐人數（含孩童），為正整數。',
    invoiceNumber: '發票上印的完整發票號碼，例如 INV-2026-0001。',
    amount: '要支付的金額（新臺幣），以數字表示，例如 1250 或 1250.5。',
    method: '付款方式：bank_transfer（銀行轉帳）或 credit_card（信用卡）。',
  },
};

function clearFor(t: (typeof CLEAR)['en']): ScenarioTools {
  const branch = { type: 'string', minLength: 1, description: t.branch };
  const date = { type: 'string', format: 'date', pattern: DATE_PATTERN, description: t.date };
  const size = { type: 'integer', minimum: 1, maximum: 20, description: t.size };
  const invoiceNumber = { type: 'string', pattern: INVOICE_PATTERN, description: t.invoiceNumber };
  return {
    restaurant: [
      tool(TOOL.findTables, 'find_available_tables', t.findTables, { restaurant_branch: branch, dining_date: date, party_size: size }, [
        'restaurant_branch',
        'dining_date',
        'party_size',
      ]),
      tool(
        TOOL.createBooking,
        'create_booking',
        t.createBooking,
        {
          restaurant_branch: branch,
          dining_date: date,
          dining_time: { type: 'string', pattern: TIME_PATTERN, description: t.time },
          party_size: size,
        },
        ['restaurant_branch', 'dining_date', 'dining_time', 'party_size'],
      ),
    ],
    invoice: [
      tool(TOOL.getPaymentStatus, 'get_payment_status', t.getPaymentStatus, { invoice_number: invoiceNumber }, ['invoice_number']),
      tool(
        TOOL.submitPayment,
        'submit_payment',
        t.submitPayment,
        {
          invoice_number: invoiceNumber,
          amount: { type: 'number', exclusiveMinimum: 0, description: t.amount },
          payment_method: { type: 'string', enum: ['bank_transfer', 'credit_card'], description: t.method },
        },
        ['invoice_number', 'amount', 'payment_method'],
      ),
    ],
  };
}

/** tools[scenario][locale] for a condition, built from per-locale builders. */
function byScenario(build: (locale: 'en' | 'zh-TW') => ScenarioTools): ToolsByScenario {
  const en = build('en');
  const zh = build('zh-TW');
  return {
    restaurant: { en: en.restaurant, 'zh-TW': zh.restaurant },
    invoice: { en: en.invoice, 'zh-TW': zh.invoice },
  };
}

export const overlappingTools = (): ToolsByScenario => byScenario((l) => overlappingFor(OVERLAP[l]));
export const clearTools = (): ToolsByScenario => byScenario((l) => clearFor(CLEAR[l]));
