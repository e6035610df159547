import type { StudyInput } from './common';

// The response protocols (system instruction per locale, markers, labels) of the two studies.

export const MARKERS = { clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' };

export const SELECTION_PROTOCOL: StudyInput['protocol'] = {
  system: {
    en:
      'You are an assistant for restaurant bookings and invoices. Use one of the provided tools when it fits the ' +
      "user's request, with arguments taken from what the user said. If information a tool requires is missing, " +
      'do not call a tool: reply starting with "CLARIFY:" and ask for it. If none of the tools can do what the ' +
      'user asks, do not call a tool: reply starting with "STOP:" and say why.',
    'zh-TW':
      '你是協助處理餐廳訂位與發票的助理。當使用者的需求適合使用所提供的工具時，請依使用者說的內容填入參數並呼叫工具。' +
      '若工具需要的資訊不足，請不要呼叫工具，改以「CLARIFY:」開頭回覆並詢問缺少的資訊。' +
      '若沒有任何工具能完成使用者的要求，請不要呼叫工具，改以「STOP:」開頭回覆並說明原因。',
  },
  markers: MARKERS,
  labels: [],
};

export const RESTAURANT_LABELS = ['AVAILABLE', 'NO_SLOTS', 'TIMEOUT'] as const;
export const INVOICE_LABELS = ['PAID', 'PENDING', 'FAILED'] as const;
export const CANNOT_DETERMINE = 'CANNOT_DETERMINE';
export const ERROR_LABEL = 'ERROR';

export const INTERPRETATION_PROTOCOL: StudyInput['protocol'] = {
  system: {
    en:
      'You are an assistant for restaurant bookings and invoices. The lookup tool has already been called for the ' +
      'user and its result follows; do not call any tool. Report the status of the result on a line of its own ' +
      'as "STATUS: <LABEL>", using exactly one label. For find_available_tables the labels are AVAILABLE, ' +
      "NO_SLOTS and TIMEOUT; for get_payment_status they are PAID, PENDING and FAILED. If the tool's definition " +
      'does not tell you what the returned status means, report STATUS: CANNOT_DETERMINE. If the code is not a ' +
      'valid code of the tool, report STATUS: ERROR. You may add one short sentence for the user after the status line.',
    'zh-TW':
      '你是協助處理餐廳訂位與發票的助理。查詢工具已經替使用者呼叫過，結果附在後面；請不要再呼叫任何工具。' +
      '請在單獨一行以「STATUS: <LABEL>」回報結果的狀態，只能使用一個標籤。' +
      'find_available_tables 的標籤為 AVAILABLE、NO_SLOTS、TIMEOUT；get_payment_status 的標籤為 PAID、PENDING、FAILED。' +
      '若工具定義沒有說明回傳的狀態代表什麼，請回報 STATUS: CANNOT_DETERMINE。' +
      '若代碼不是該工具的有效代碼，請回報 STATUS: ERROR。狀態行之後可以再加一句給使用者的簡短說明。',
  },
  markers: MARKERS,
  labels: [...RESTAURANT_LABELS, ...INVOICE_LABELS, CANNOT_DETERMINE, ERROR_LABEL],
};
