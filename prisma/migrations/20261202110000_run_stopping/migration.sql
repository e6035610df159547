-- Stop when decided (issue 24 item 2): each comparison's decision (e-value or precision, after how many
-- pairs), written once when it is made (lib/db/stopping.ts). Null for runs without the option.
ALTER TABLE "runs" ADD COLUMN "stopping" JSONB;
