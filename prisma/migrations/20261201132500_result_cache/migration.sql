-- Results at scale (issue 10 item 10): Table 1's per-cluster counts (lib/analysis/cells.ts RunCells) and the
-- model-vs-model cells of the compare page, stored once computed, keyed by the run's results version
-- (lib/db/result-cache.ts: trials per status, their latest finish and the sum of lease tokens — it changes
-- with every claim and every recorded trial). A stored value is read only while the version is still the
-- run's, so it can never disagree with the trials; a run in progress recomputes at each new version.
CREATE TABLE "result_cache" (
  "run_id" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "version" TEXT NOT NULL,
  "value" JSONB NOT NULL,
  "computed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "result_cache_pkey" PRIMARY KEY ("run_id", "key"),
  CONSTRAINT "result_cache_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- A completed run (completed / completed_with_unresolved: no trial queued or running, and no way back) changes
-- no more: its progress (trials per status, attempt totals) is written by the statement that completes it
-- (lib/db/runs.ts completeRunIfDone), so the progress API and the list pages read one row instead of
-- counting 100,000 trials, and its results version is fixed.
ALTER TABLE "runs" ADD COLUMN "final_progress" JSONB;

-- The review list of a completed run, classed and ordered once (lib/db/review-pairs.ts): a page is read by
-- its position instead of grouping every trial of the run at each view. `version` is the run's results
-- version (fixed once completed) with the baselines it was classed against.
CREATE TABLE "review_pairs" (
  "run_id" TEXT NOT NULL,
  "version" TEXT NOT NULL,
  "rn" INTEGER NOT NULL,
  "class" TEXT NOT NULL,
  "class_rn" INTEGER NOT NULL,
  "pair_key" TEXT NOT NULL,
  "study" TEXT NOT NULL,
  "scenario" TEXT NOT NULL,
  "locale" TEXT NOT NULL,
  "case_id" TEXT NOT NULL,
  "replicate" INTEGER NOT NULL,
  "order_index" INTEGER NOT NULL,
  "b_condition" TEXT,
  "b_id" TEXT,
  "b_status" TEXT,
  "t_condition" TEXT NOT NULL,
  "t_id" TEXT NOT NULL,
  "t_status" TEXT NOT NULL,
  CONSTRAINT "review_pairs_pkey" PRIMARY KEY ("run_id", "rn"),
  CONSTRAINT "review_pairs_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "review_pairs_run_id_class_class_rn_key" ON "review_pairs"("run_id", "class", "class_rn");
