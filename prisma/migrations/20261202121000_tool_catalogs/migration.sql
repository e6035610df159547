-- Tool catalogs stored once (issue 27 item 2, lib/db/catalogs.ts): the tool definitions of a request, as
-- sent, are kept once per distinct text; an attempt's request refers to its catalog instead of repeating it.
CREATE TABLE "tool_catalogs" (
  "ref" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "tool_catalogs_pkey" PRIMARY KEY ("ref")
);

-- catalog_ref NULL: the request is whole (every row stored before this migration, and short catalogs).
ALTER TABLE "attempts" ADD COLUMN "catalog_ref" TEXT;
ALTER TABLE "attempts" ADD COLUMN "catalog_at" INTEGER;

-- An attempt's request as it was sent: the stored text with its catalog's text put back where the `null`
-- placeholder stands (catalog_at: characters before it). The result is the same text as a whole request.
-- A request written over by hand without clearing catalog_ref (no `null` at catalog_at) reads as stored.
CREATE FUNCTION "tclab_attempt_request"(request json, catalog_ref text, catalog_at integer) RETURNS json
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN catalog_ref IS NULL OR substr(request::text, catalog_at + 1, 4) IS DISTINCT FROM 'null' THEN request
              ELSE overlay(request::text PLACING (SELECT c.body FROM "tool_catalogs" c WHERE c.ref = catalog_ref) FROM catalog_at + 1 FOR 4)::json END
$$;
