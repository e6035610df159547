-- Raw request and response bodies are stored as they went over the wire. jsonb reorders object keys and
-- drops duplicate ones; json keeps the text exactly, so a stored request is byte-for-byte what was sent.
ALTER TABLE "attempts" ALTER COLUMN "request" TYPE JSON USING "request"::json;
ALTER TABLE "attempts" ALTER COLUMN "response" TYPE JSON USING "response"::json;
