-- Batch mode (docs/batch.md): a run with `batch: true` sends its trials' attempts through a provider's batch
-- API. One row per batch, claimed like a trial: `holder` is the worker that polls it (a holder whose heartbeat
-- lapsed, or whose lease ran out, is taken over), `fence` is bumped on every claim and every write is fenced
-- on it. `state` 'submitting' is written before the batch is sent and 'submitted' with the provider's id after;
-- a batch with a provider id is only ever polled again, never sent again. Items name the trial and attempt
-- (custom id `<trial id>.<n>`) whose answer the batch carries.
CREATE TABLE "provider_batches" (
  "id" TEXT PRIMARY KEY,
  "run_id" TEXT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
  "provider" TEXT NOT NULL,
  "provider_batch_id" TEXT,
  "state" TEXT NOT NULL DEFAULT 'submitting',
  "item_count" INTEGER NOT NULL,
  "succeeded" INTEGER NOT NULL DEFAULT 0,
  "failed" INTEGER NOT NULL DEFAULT 0,
  "holder" TEXT,
  "fence" INTEGER NOT NULL DEFAULT 1,
  "lease_expires_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "submitted_at" TIMESTAMPTZ(3),
  "polled_at" TIMESTAMPTZ(3),
  "ended_at" TIMESTAMPTZ(3)
);
CREATE INDEX "provider_batches_run_id_state_idx" ON "provider_batches" ("run_id", "state");
CREATE UNIQUE INDEX "provider_batches_provider_batch_id_key" ON "provider_batches" ("provider", "provider_batch_id");

CREATE TABLE "provider_batch_items" (
  "batch_id" TEXT NOT NULL REFERENCES "provider_batches"("id") ON DELETE CASCADE,
  "trial_id" TEXT NOT NULL REFERENCES "trials"("id") ON DELETE CASCADE,
  "attempt_n" INTEGER NOT NULL,
  "custom_id" TEXT NOT NULL,
  "lease_token" INTEGER NOT NULL,
  "recorded_at" TIMESTAMPTZ(3),
  PRIMARY KEY ("batch_id", "custom_id")
);
-- one attempt of a trial is in one batch at most
CREATE UNIQUE INDEX "provider_batch_items_trial_attempt_key" ON "provider_batch_items" ("trial_id", "attempt_n");
