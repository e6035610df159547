-- A run's destination is part of the run (docs/runs.md, "Where a run's requests go"): its base URL is fixed
-- in its settings when it is created. A worker that cannot send there (another base URL configured, no key
-- for it) leaves the trials unsent and says why here; a worker that can send there clears it.
--
-- Runs stored before this have no base URL in their settings. They are not backfilled here (the database
-- cannot know which environment created them): a run that still has trials to send gets the base URL of the
-- first worker that takes it fixed on it then (compare-and-set, lib/db/runs.ts fixRunBaseUrl), and a finished
-- one keeps none — its page says the destination was not recorded.
ALTER TABLE "runs" ADD COLUMN "unsent_reason" TEXT;
