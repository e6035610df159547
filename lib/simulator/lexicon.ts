// The simulator's small, fixed vocabulary. Everything the heuristic "knows" about language is here, in
// plain sight: no per-case data, no expected answers. English is matched on stems (see text.ts), Chinese
// on literal substrings.

export const STOPWORDS = new Set(
  (
    'a an the and or of to for in on at by with from into is are was were be been being it its this that these those ' +
    'i me my mine we our you your he she they them their please can could would will shall should may might must ' +
    'do does did has have had if any all as so than then there here just yet also about what which who whom when ' +
    'where whether how up out e g eg yes ok okay hi hello thanks thank one s'
  ).split(' '),
);

/** English negation cues: words of a sentence after one of these describe what a tool does NOT do. */
export const NEGATION_EN = /\b(?:not|never|cannot|can['’]t|won['’]t|doesn['’]t|don['’]t|isn['’]t|no)\b/i;
/** Chinese negation cues (same role). */
export const NEGATION_ZH = /不會|不能|無法|不可|不得|不要|請勿|不支援|不提供|並非|不是|絕不/;

/** A sentence tells the model to ask when a field is missing: an ask cue and a missing cue together. */
export const ASK_CUE = /\bask\b|\bclarify\b|詢問|追問|先問/i;
export const MISSING_CUE = /\bmissing\b|\bnot (?:given|provided)\b|\babsent\b|缺少|沒有提供|未提供|沒提供/i;

/**
 * Action verbs the STOP rule understands. `en` are stems (text.ts `stem`), `zh` literal words. A task's
 * verbs are looked up here; a verb the definitions mention only inside a negation ("cannot void") and
 * nowhere else is an action no tool offers.
 */
export interface Action {
  id: string;
  en: string[];
  zh: string[];
  /** How the STOP reply names the action. */
  say: { en: string; zh: string };
}

export const ACTIONS: Action[] = [
  { id: 'void', en: ['void'], zh: ['作廢'], say: { en: 'void it', zh: '作廢' } },
  { id: 'cancel', en: ['cancel', 'cancell'], zh: ['取消'], say: { en: 'cancel it', zh: '取消' } },
  { id: 'refund', en: ['refund'], zh: ['退款', '退費'], say: { en: 'refund it', zh: '退款' } },
  { id: 'change', en: ['chang', 'modify', 'modifi', 'updat', 'reschedul', 'edit'], zh: ['修改', '更改', '變更', '改期'], say: { en: 'change it', zh: '修改' } },
  { id: 'delete', en: ['delet', 'remov'], zh: ['刪除'], say: { en: 'delete it', zh: '刪除' } },
  { id: 'book', en: ['book', 'reserv', 'creat'], zh: ['訂位', '預訂', '建立'], say: { en: 'book it', zh: '訂位' } },
  { id: 'pay', en: ['pay', 'submit', 'charg'], zh: ['付款', '支付', '扣款', '送出'], say: { en: 'pay it', zh: '付款' } },
];

/**
 * Head nouns of free-text string fields (the last word of the parameter name) and how they show up in a
 * task. `invent` is what the simulator makes up when it calls anyway without the value — the seed's
 * "main branch" behaviour.
 */
export interface HeadNoun {
  en: string[];
  zh: string[];
  invent?: { en: string; zh: string };
}

export const HEAD_NOUNS: Record<string, HeadNoun> = {
  branch: { en: ['branch'], zh: ['分店', '店'], invent: { en: 'main branch', zh: '總店' } },
  location: { en: ['location', 'branch'], zh: ['分店', '店'] },
};

/** Characters and words that end a Chinese name when walking left from its head noun. */
export const ZH_NAME_STOP_CHARS = new Set([...'在的到於去幫我你想要請訂查問和跟與或是下看把給為從向對有嗎呢了位天號日月年，。、：；？！（）「」 ']);
export const ZH_NAME_STOP_WORDS = ['查詢', '查看', '預訂', '確認', '取消', '一下', '請問', '幫我'];

/** Numbers next to these belong to a head-count field. */
export const PEOPLE_CUES = { en: ['people', 'persons', 'person', 'guests', 'guest', 'diners', 'adults', 'pax'], zh: ['位', '人', '名'] };
/** Numbers next to these belong to a money field. */
export const MONEY_CUES = { en: ['twd', 'ntd', 'usd', 'dollars', 'dollar', 'nt'], zh: ['元', '塊'] };
export const MONEY_PREFIX = /(?:NT\$|US\$|\$|TWD|NTD)\s*$/i;

export const NUMBER_WORDS_EN: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
export const NUMBER_WORDS_ZH: Record<string, number> = { 一: 1, 二: 2, 兩: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

export const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

/** Labels an interpretation protocol uses for "cannot tell" and for "invalid code", recognised by name. */
export const ABSTAIN_LABEL = /CANNOT|UNKNOWN|UNDETERMIN|UNCLEAR/;
export const ERROR_LABEL = /ERROR|INVALID/;
