-- The loop runs in the worker (docs/optimise.md "The loop, stored"): what the worker needs to continue a record
-- besides what is already stored — who started it, the run settings, the spend confirmation, the candidate bound.
ALTER TABLE "optimisations" ADD COLUMN "request" JSONB;
