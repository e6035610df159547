-- Tool Contract Lab: initial schema. Mirrors prisma/schema.prisma (checked by lib/db/schema.itest.ts).

CREATE TABLE "experiments" (
  "id" TEXT NOT NULL,
  "slug" TEXT NOT NULL,
  "version" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "spec" JSONB NOT NULL,
  "spec_hash" TEXT NOT NULL,
  "frozen" BOOLEAN NOT NULL DEFAULT true,
  "template" TEXT,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "experiments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "experiments_slug_version_key" ON "experiments"("slug", "version");

CREATE TABLE "runs" (
  "id" TEXT NOT NULL,
  "experiment_id" TEXT NOT NULL,
  "provider" TEXT NOT NULL,
  "model" TEXT NOT NULL,
  "settings" JSONB NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'created',
  "status_reason" TEXT,
  "total_trials" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "started_at" TIMESTAMP(3),
  "finished_at" TIMESTAMP(3),
  CONSTRAINT "runs_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "runs_experiment_id_fkey" FOREIGN KEY ("experiment_id") REFERENCES "experiments"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "runs_experiment_id_idx" ON "runs"("experiment_id");

CREATE TABLE "trials" (
  "id" TEXT NOT NULL,
  "run_id" TEXT NOT NULL,
  "trial_key" TEXT NOT NULL,
  "pair_key" TEXT NOT NULL,
  "study" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "scenario" TEXT NOT NULL,
  "locale" TEXT NOT NULL,
  "case_id" TEXT NOT NULL,
  "condition" TEXT NOT NULL,
  "order" JSONB NOT NULL,
  "replicate" INTEGER NOT NULL,
  "tool_set_ref" TEXT NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'queued',
  "lease_token" INTEGER NOT NULL DEFAULT 0,
  "lease_owner" TEXT,
  "lease_expires_at" TIMESTAMP(3),
  "attempt_count" INTEGER NOT NULL DEFAULT 0,
  "not_before" TIMESTAMP(3),
  "finished_at" TIMESTAMP(3),
  CONSTRAINT "trials_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "trials_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "trials_run_id_trial_key_key" ON "trials"("run_id", "trial_key");
CREATE INDEX "trials_run_id_status_idx" ON "trials"("run_id", "status");

CREATE TABLE "attempts" (
  "id" TEXT NOT NULL,
  "run_id" TEXT NOT NULL,
  "trial_id" TEXT,
  "n" INTEGER NOT NULL,
  "kind" TEXT NOT NULL,
  "request" JSONB NOT NULL,
  "response" JSONB,
  "outcome" TEXT NOT NULL,
  "error_kind" TEXT,
  "error_message" TEXT,
  "http_status" INTEGER,
  "retry_after_ms" INTEGER,
  "latency_ms" INTEGER,
  "input_tokens" INTEGER,
  "output_tokens" INTEGER,
  "lease_token" INTEGER NOT NULL DEFAULT 0,
  "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "finished_at" TIMESTAMP(3),
  CONSTRAINT "attempts_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "attempts_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "attempts_trial_id_fkey" FOREIGN KEY ("trial_id") REFERENCES "trials"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "attempts_run_id_kind_trial_id_n_key" ON "attempts"("run_id", "kind", "trial_id", "n");
CREATE INDEX "attempts_trial_id_idx" ON "attempts"("trial_id");

CREATE TABLE "observations" (
  "trial_id" TEXT NOT NULL,
  "attempt_id" TEXT NOT NULL,
  "tool_calls" JSONB NOT NULL,
  "marker" TEXT,
  "label" TEXT,
  "text" TEXT,
  "refusal" BOOLEAN NOT NULL DEFAULT false,
  "malformed" TEXT,
  CONSTRAINT "observations_pkey" PRIMARY KEY ("trial_id"),
  CONSTRAINT "observations_trial_id_fkey" FOREIGN KEY ("trial_id") REFERENCES "trials"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "verdicts" (
  "trial_id" TEXT NOT NULL,
  "check_id" TEXT NOT NULL,
  "axis" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "category" TEXT,
  "reason" TEXT NOT NULL,
  "evidence" JSONB NOT NULL,
  CONSTRAINT "verdicts_pkey" PRIMARY KEY ("trial_id", "check_id"),
  CONSTRAINT "verdicts_trial_id_fkey" FOREIGN KEY ("trial_id") REFERENCES "trials"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
