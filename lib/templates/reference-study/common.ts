import type { ExperimentSpecInput } from '../../schema/experiment';

// Ids and shapes shared by the reference-study content files (docs/design.md#the-reference-study, seed 000).

export const LOCALES = ['en', 'zh-TW'] as const;
export type Loc = (typeof LOCALES)[number];
export type ByLocale<T> = Record<Loc, T>;

export const SCENARIO = { restaurant: 'restaurant', invoice: 'invoice' } as const;
export type ScenarioId = (typeof SCENARIO)[keyof typeof SCENARIO];

/** Scenario tool ids (hidden metadata, never sent); one read and one write tool per scenario. */
export const TOOL = {
  findTables: 'find_tables',
  createBooking: 'create_booking',
  getPaymentStatus: 'get_payment_status',
  submitPayment: 'submit_payment',
} as const;

export const STUDY = { selection: 'selection', interpretation: 'interpretation' } as const;
export const CONDITION = {
  overlapping: 'overlapping',
  clear: 'clear',
  noCodeMeanings: 'no-code-meanings',
  codeMeanings: 'code-meanings',
} as const;

export type StudyInput = ExperimentSpecInput['studies'][number];
export type ConditionInput = StudyInput['conditions'][number];
export type ToolDefinitionInput = ConditionInput['tools'][string][string][number];
export type { CaseInput } from '../../schema/experiment';
import type { CaseInput } from '../../schema/experiment';
export type CheckInput = CaseInput['checks'][number];
/** tools[scenario][locale] of one condition. */
export type ToolsByScenario = ConditionInput['tools'];

/** The restaurant and its branches used by the tasks, in both languages (full names, as the user says them). */
export const BRANCH = {
  xinyi: { en: 'Sea Breeze Eatery, Xinyi branch', zh: '海風餐館信義店' },
  zhongshan: { en: 'Sea Breeze Eatery, Zhongshan branch', zh: '海風餐館中山店' },
  banqiao: { en: 'Sea Breeze Eatery, Banqiao branch', zh: '海風餐館板橋店' },
} as const;
export type BranchKey = keyof typeof BRANCH;

/** Acceptable spellings of a branch argument (the matcher compares after NFC and trimming). */
export function branchValues(key: BranchKey, locale: Loc): string[] {
  const b = BRANCH[key];
  if (locale === 'en') {
    const place = b.en.split(', ')[1];
    return [b.en, `Sea Breeze Eatery ${place}`, `Sea Breeze Eatery - ${place}`];
  }
  return [b.zh, b.zh.replace('海風餐館', '海風餐館 '), b.zh.replace(/店$/, '分店')];
}

export function tool(id: string, name: string, description: string, properties: Record<string, unknown>, required: string[]): ToolDefinitionInput {
  return { tool: id, name, description, parameters: { type: 'object', properties, required, additionalProperties: false } };
}
