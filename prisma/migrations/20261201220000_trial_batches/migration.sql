-- A queue job delivers a batch of a run's trials (lib/queue/contracts.ts TRIALS_PER_JOB) instead of one trial:
-- trials.batch numbers them, fixed when they are written. Trials written before this migration get batches of
-- 16 in the order of their ids, so a run that is running now keeps being delivered (a job of the old shape,
-- one per trial, fails its payload check and reconcile re-adds its batch). No index: a job carries the ids of
-- its trials, and the batches of a run's pending trials are grouped from trials_run_id_status_idx.
ALTER TABLE "trials" ADD COLUMN "batch" INTEGER NOT NULL DEFAULT 0;
UPDATE "trials" t SET "batch" = n.b
  FROM (SELECT id, ((row_number() OVER (PARTITION BY run_id ORDER BY id)) - 1) / 16 AS b FROM "trials") n
 WHERE t.id = n.id AND n.b <> 0;
