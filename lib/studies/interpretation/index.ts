import { scoreTrial } from '../../scoring/score';
import type { KindModule } from '../types';
import { interpretationSpec } from './spec';

export const interpretation: KindModule = {
  spec: interpretationSpec,
  summary: 'the lookup call is fixed and a tool result injected; the model must report a label',
  extendRequest(request, { kase, condition, definitions }) {
    if (!kase.fixedCall) return;
    const def = definitions.find((d) => d.tool === kase.fixedCall!.tool);
    if (!def) throw new Error(`case "${kase.id}": condition "${condition.id}" does not define tool "${kase.fixedCall.tool}"`);
    request.interpretation = { call: { name: def.name, arguments: kase.fixedCall.arguments }, result: kase.toolResult };
  },
  turns: 'single',
  score: scoreTrial,
  caseDetails: (kase) => ({ fixedCall: kase.fixedCall, toolResult: kase.toolResult }),
};
