-- Cases from traces (docs/traces.md): an import of a trace or log file, its report, and the candidates it
-- stored — redacted before they were written; only the redacted text is ever stored. A candidate becomes a
-- case only through review: the reviewer's card, or a rejection with its reason.
CREATE TABLE "trace_imports" (
  "id" TEXT NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "actor" TEXT NOT NULL,
  "actor_user_id" TEXT,
  "format" TEXT NOT NULL,
  "file" TEXT NOT NULL,
  "experiment_id" TEXT,
  "report" JSONB NOT NULL,
  CONSTRAINT "trace_imports_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "trace_candidates" (
  "import_id" TEXT NOT NULL,
  "seq" INTEGER NOT NULL,
  "hash" TEXT NOT NULL,
  "group_hash" TEXT NOT NULL,
  "group_size" INTEGER NOT NULL DEFAULT 1,
  "stratum" TEXT NOT NULL,
  "catalog_completeness" TEXT NOT NULL,
  "candidate" JSONB NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'unreviewed',
  "card" JSONB,
  "reject_reason" TEXT,
  "reviewer" TEXT,
  "reviewer_user_id" TEXT,
  "reviewed_at" TIMESTAMP(3),
  CONSTRAINT "trace_candidates_pkey" PRIMARY KEY ("import_id", "seq"),
  CONSTRAINT "trace_candidates_import_fkey" FOREIGN KEY ("import_id") REFERENCES "trace_imports" ("id") ON DELETE CASCADE,
  CONSTRAINT "trace_candidates_status_check" CHECK ("status" IN ('unreviewed', 'accepted', 'rejected'))
);
CREATE INDEX "trace_candidates_import_id_status_idx" ON "trace_candidates" ("import_id", "status");
