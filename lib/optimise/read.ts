// Use case: the optimisation records as stored — one record, or an experiment's (docs/optimise.md "The loop,
// stored"). Plain reads with nothing to compose: lib/db stores the rows, and doors read them here.

export { getOptimisation, listOptimisations } from '../db/optimisations';
