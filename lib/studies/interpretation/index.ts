import { oneAnswer } from '../one-answer';
import type { KindModule } from '../types';
import { interpretationSpec } from './spec';

export const interpretation: KindModule = {
  spec: interpretationSpec,
  summary: 'the lookup call is fixed and a tool result injected; the model must report a label',
  turns: 'single',
  // the fixed call and its result are one step of history: an assistant tool call (given no id — each
  // adapter names it in its own format) and the tool result answering it
  extendRequest(request, { kase, condition, definitions }) {
    if (!kase.fixedCall) return;
    const def = definitions.find((d) => d.tool === kase.fixedCall!.tool);
    if (!def) throw new Error(`case "${kase.id}": condition "${condition.id}" does not define tool "${kase.fixedCall.tool}"`);
    request.history.push({ text: null, calls: [{ name: def.name, arguments: kase.fixedCall.arguments }], results: [{ name: def.name, result: kase.toolResult }] });
  },
  start: oneAnswer,
  caseDetails: (kase) => ({ fixedCall: kase.fixedCall, toolResult: kase.toolResult }),
};
