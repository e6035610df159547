import { oneAnswer } from '../one-answer';
import type { KindModule } from '../types';
import { selectionSpec } from './spec';

export const selection: KindModule = {
  spec: selectionSpec,
  summary: 'the model sees the candidate tools and decides: call which tool with which arguments, or CLARIFY, or STOP',
  turns: 'single',
  extendRequest() {},
  start: oneAnswer,
  caseDetails: () => null,
};
