-- Trial → turns → attempts (issue 11). A turn is one model answer of a task trial's conversation, stored as
-- soon as it completes (with what its calls did on the fixture back-end), so a worker that dies
-- mid-conversation resumes from the last stored turn and rebuilds the fixture by replaying the stored calls.
-- An attempt stays one HTTP exchange; `attempts.turn` says which turn it was for (retries of a turn's
-- transport error are attempts of that turn, never new turns).
CREATE TABLE "turns" (
  "trial_id" TEXT NOT NULL,
  "n" INTEGER NOT NULL,
  "run_id" TEXT NOT NULL,
  "attempt_n" INTEGER NOT NULL,
  "observation" JSONB NOT NULL,
  "calls" JSONB NOT NULL,
  "results" JSONB NOT NULL,
  "evidence" JSONB NOT NULL,
  "lease_token" INTEGER NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "turns_pkey" PRIMARY KEY ("trial_id", "n"),
  CONSTRAINT "turns_trial_id_fkey" FOREIGN KEY ("trial_id") REFERENCES "trials"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "turns_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "turns_run_id_idx" ON "turns"("run_id");
ALTER TABLE "attempts" ADD COLUMN "turn" INTEGER NOT NULL DEFAULT 1;
-- The kind's own result beside the verdicts (task: fixture_ref, principal, state before and after, the fixture log).
ALTER TABLE "trials" ADD COLUMN "details" JSONB;
