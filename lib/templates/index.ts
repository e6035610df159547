import type { ExperimentSpec } from '../schema/experiment';
import { REFERENCE_STUDY_ID, referenceStudy } from './reference-study';

export { PUBLISHED_REFERENCE, REFERENCE_STUDY_PUBLISHED } from './reference-study/published';
export type { PublishedCount, PublishedReferenceData, PublishedRow, PublishedStudy } from './reference-study/published';
export { REFERENCE_STUDY_ID, referenceStudy } from './reference-study';

/** A built-in experiment a new user can run at once (offline with the simulated provider). */
export interface Template {
  id: string;
  name: string;
  description: string;
  build(): ExperimentSpec;
}

export const TEMPLATES: Record<string, Template> = {
  [REFERENCE_STUDY_ID]: {
    id: REFERENCE_STUDY_ID,
    name: 'Reference study (seed 000): restaurant bookings and invoices',
    description:
      'Tool selection with overlapping vs. clear definitions (both candidate orders) and result interpretation ' +
      'without vs. with status-code meanings; English and Traditional Chinese; 152 formal requests, 2 pre-checks.',
    build: referenceStudy,
  },
};

/** The template with this id; fails fast on an unknown id, naming the known ones. */
export function getTemplate(id: string): Template {
  const t = Object.prototype.hasOwnProperty.call(TEMPLATES, id) ? TEMPLATES[id] : undefined;
  if (!t) throw new Error(`unknown template "${id}" (known: ${Object.keys(TEMPLATES).join(', ')})`);
  return t;
}
