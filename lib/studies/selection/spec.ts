import { KIND_CASE_FIELDS } from '../../schema/kind-fields';
import type { KindSpec } from '../spec-types';

/** selection: the model sees the candidate tools and decides (a call, CLARIFY or STOP). No fields of its own. */
export const selectionSpec: KindSpec = {
  kind: 'selection',
  caseFields: KIND_CASE_FIELDS.selection,
  catalog: true,
  validateCase() {},
};
