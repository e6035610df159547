-- Improving descriptions (docs/optimise.md): one row per run of the tune → select → confirm loop. The selection
-- rule and the candidates with their provenance are stored before the select run starts; the winner(s) are
-- frozen (stage 'frozen', frozen_at) before any confirm case exists as a trial; a confirmation of the same
-- sealed split is a new numbered look (unique per source version, study and seal).
CREATE TABLE "optimisations" (
  "id" TEXT NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "actor" TEXT NOT NULL,
  "actor_user_id" TEXT,
  "experiment_id" TEXT NOT NULL,
  "study_id" TEXT NOT NULL,
  "split_seed" INTEGER NOT NULL,
  "split_shares" JSONB NOT NULL,
  "sealed_count" INTEGER NOT NULL,
  "sealed_hash" TEXT NOT NULL,
  "rule" JSONB NOT NULL,
  "targets" JSONB NOT NULL,
  "candidates" JSONB NOT NULL,
  "stage" TEXT NOT NULL DEFAULT 'select',
  "select_experiment_id" TEXT,
  "select_run_id" TEXT,
  "winners" JSONB,
  "frozen_at" TIMESTAMP(3),
  "look" INTEGER,
  "confirm_experiment_id" TEXT,
  "confirm_run_ids" JSONB,
  "result" JSONB,
  "error" TEXT,
  CONSTRAINT "optimisations_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "optimisations_stage_check" CHECK ("stage" IN ('select', 'frozen', 'confirmed', 'no-winner', 'failed'))
);
CREATE INDEX "optimisations_experiment_id_study_id_idx" ON "optimisations" ("experiment_id", "study_id");
CREATE UNIQUE INDEX "optimisations_experiment_id_study_id_sealed_hash_look_key" ON "optimisations" ("experiment_id", "study_id", "sealed_hash", "look");
