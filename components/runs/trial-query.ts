export { TRIAL_FILTER_KEYS, TRIAL_SORT_KEYS, TrialPageQuery, type TrialFilterKey, type TrialPage, type TrialRow } from '@/lib/schema/trial-page';
