-- Heartbeats (docs/faults.md › Recovery after a crash: heartbeats): every worker and every process sending a
-- run's pre-checks renews its row here about once a second. A claim on a trial or on a run's pre-checks whose
-- holder's row has lapsed is taken over like one whose lease ran out. A small table: one row per process
-- start, rows dead for an hour are deleted.
CREATE TABLE "holders" (
  "id" TEXT PRIMARY KEY,
  "alive_until" TIMESTAMPTZ(3) NOT NULL,
  "swept_at" TIMESTAMPTZ(3)
);
