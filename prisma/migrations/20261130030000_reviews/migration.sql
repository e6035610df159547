-- A reviewer's reading of one check of one trial (DESIGN §10.4), kept apart from the verdict: the formal
-- result never changes. The grader's status is copied at review time, so agreement between the grader and
-- reviewers is computed from these rows alone and stays traceable.
CREATE TABLE "reviews" (
  "trial_id" TEXT NOT NULL,
  "check_id" TEXT NOT NULL,
  "run_id" TEXT NOT NULL,
  "grader_status" TEXT NOT NULL,
  "human_status" TEXT NOT NULL,
  "reviewer" TEXT NOT NULL,
  "note" TEXT NOT NULL DEFAULT '',
  "reviewed_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "reviews_pkey" PRIMARY KEY ("trial_id", "check_id"),
  CONSTRAINT "reviews_human_status_check" CHECK ("human_status" IN ('pass', 'fail')),
  CONSTRAINT "reviews_trial_id_check_id_fkey" FOREIGN KEY ("trial_id", "check_id") REFERENCES "verdicts"("trial_id", "check_id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "reviews_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "reviews_run_id_idx" ON "reviews"("run_id");
