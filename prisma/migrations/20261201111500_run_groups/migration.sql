-- Several models at once (issue 10 item 4): the runs created together by one Run (one per provider/model
-- target) share a group id. Each stays a run of its own (status, rate limits, trials); the group only
-- says they were started as one comparison. Runs from before have none.
ALTER TABLE "runs" ADD COLUMN "group_id" TEXT;
CREATE INDEX "runs_group_id_idx" ON "runs"("group_id");
