-- Review pairs shared among reviewers (docs/review.md "Shared among reviewers"): a pair of a run (its pair key and
-- treatment condition, as the review list names it) assigned to one account. Kept across the list's versions; an
-- account's removal removes its assignments. This instance's accounts: not part of a lab's archive.
CREATE TABLE "review_assignments" (
  "run_id" TEXT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
  "pair_key" TEXT NOT NULL,
  "t_condition" TEXT NOT NULL,
  "assignee_user_id" TEXT NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "assigned_by" TEXT NOT NULL,
  "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("run_id", "pair_key", "t_condition")
);
CREATE INDEX "review_assignments_assignee" ON "review_assignments" ("run_id", "assignee_user_id");
