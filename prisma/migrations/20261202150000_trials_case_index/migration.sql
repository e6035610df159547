-- One page of the run page's grid (What the model did) shows whole cases: lib/db/choices.ts choiceRowsOf reads
-- the trials of a few cases. Without an index on the case the page scanned the run's trials — 0.6 s at
-- 1,000,000 trials (issue 27 item 3) and growing with the run; with it, the page reads about 1,000 rows.
CREATE INDEX "trials_run_id_case_id_idx" ON "trials"("run_id", "case_id");
