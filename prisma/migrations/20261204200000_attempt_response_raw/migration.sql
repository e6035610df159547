-- A response body whose text does not hold its bytes exactly (not UTF-8, or nested deeper than PostgreSQL's
-- json parser can go) is kept as the bytes received; `response` then holds {"text": ...} for reading.
-- Null for every ordinary answer (docs/faults.md › What a provider sends is kept).
ALTER TABLE "attempts" ADD COLUMN "response_raw" BYTEA;
