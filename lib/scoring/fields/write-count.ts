import { appliedWrites } from '../../fixture/backend';
import { exact } from './shared';
import type { FixtureField } from './types';

/** `write_count` (task studies): the writes the fixture applied. */
export const writeCount: FixtureField<'write_count'> = {
  name: 'write_count',
  source: 'fixture',
  checkpoint: 'completion',
  rule: 'write_count: writes the fixture applied (its log)',
  categories: ['unwanted_write', 'missed_write'],
  observe: ({ log }) => appliedWrites(log).length,
  part: 'fixture.log',
  categoryRank: 3,
  compare: exact('write_count'),
  categorize: (f, { observed }) =>
    (observed.write_count ?? 0) > Number(f.expected)
      ? { category: 'unwanted_write', rule: 'unwanted_write: more writes applied than the card expects' }
      : { category: 'missed_write', rule: 'missed_write: fewer writes applied than the card expects' },
  designer: { label: 'write count', input: 'number' },
};
