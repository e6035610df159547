import { duplicateWrites } from '../../fixture/backend';
import { exact } from './shared';
import type { FixtureField } from './types';

/** `duplicate_writes` (task studies): applied writes repeating an earlier one — default 0. */
export const duplicateWritesField: FixtureField<'duplicate_writes'> = {
  name: 'duplicate_writes',
  source: 'fixture',
  checkpoint: 'completion',
  rule: 'duplicate_writes: applied writes repeating an earlier one (same tool, same arguments)',
  categories: ['duplicate_write'],
  observe: ({ log, handlers }) => duplicateWrites(log, handlers).length,
  part: 'fixture.log',
  categoryRank: 0,
  compare: exact('duplicate_writes'),
  categorize: () => ({ category: 'duplicate_write', rule: 'duplicate_write: a write was applied twice for one intended action' }),
};
