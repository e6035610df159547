import type { KindSpec } from '../spec-types';

/** selection: the model sees the candidate tools and decides (a call, CLARIFY or STOP). No fields of its own. */
export const selectionSpec: KindSpec = {
  kind: 'selection',
  caseFields: {},
  validateCase() {},
};
