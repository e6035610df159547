-- Exports stored once built (docs/export.md#stored-parquet-tables): the Parquet tables of a completed run, kept under the
-- version of what they were built from (the run's frozen results version, its reviews, the secrets redacted and
-- the format) and read back only while that version is still the run's. Derived data: rebuilt when missing or
-- stale, left out of a lab's archive. Each file in chunks (lib/db/stored-exports.ts), in order.
CREATE TABLE "stored_exports" (
  "run_id" TEXT NOT NULL REFERENCES "runs"("id") ON DELETE CASCADE,
  "kind" TEXT NOT NULL,
  "version" TEXT NOT NULL,
  "files" JSONB NOT NULL,
  "stored_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY ("run_id", "kind")
);
CREATE TABLE "stored_export_chunks" (
  "run_id" TEXT NOT NULL,
  "kind" TEXT NOT NULL,
  "file" TEXT NOT NULL,
  "seq" INTEGER NOT NULL,
  "bytes" BYTEA NOT NULL,
  PRIMARY KEY ("run_id", "kind", "file", "seq"),
  FOREIGN KEY ("run_id", "kind") REFERENCES "stored_exports"("run_id", "kind") ON DELETE CASCADE
);
-- Parquet is compressed already: no second compression attempt on the way into TOAST
ALTER TABLE "stored_export_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
