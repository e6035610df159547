import { KIND_CASE_FIELDS } from '../../schema/kind-fields';
import type { KindSpec } from '../spec-types';

/** interpretation: the lookup call is fixed and its result injected; the model must report a label. */
export const interpretationSpec: KindSpec = {
  kind: 'interpretation',
  /** The lookup call, fixed, and the tool result injected after it (shapes: lib/schema/kind-fields.ts). */
  caseFields: KIND_CASE_FIELDS.interpretation,
  validateCase(c, path, issue, scenario) {
    const fixed = c.fixedCall as { tool: string } | undefined;
    if (!fixed) issue([...path, 'fixedCall'], 'an interpretation case needs the fixed lookup call');
    else if (scenario && !scenario.tools.some((t) => t.id === fixed.tool))
      issue([...path, 'fixedCall', 'tool'], `"${fixed.tool}" is not a tool of scenario "${scenario.id}"`);
    if (c.toolResult === undefined) issue([...path, 'toolResult'], 'an interpretation case needs the injected tool result');
  },
};
