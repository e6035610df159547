-- Catalogs referred to by a 4-byte id (issue 27 item 2, lib/db/catalogs.ts): an attempt's reference to its
-- tool catalog was the catalog's `sha256:` key, 71 characters (72 bytes) repeated in every attempt, a fifth of
-- what a 128-tool attempt still stored per row. The key stays the catalog's identity (content-addressed, unique);
-- attempts refer to the catalog's integer id.
ALTER TABLE "tool_catalogs" ADD COLUMN "id" SERIAL NOT NULL;
CREATE UNIQUE INDEX "tool_catalogs_id_key" ON "tool_catalogs"("id");

ALTER TABLE "attempts" ADD COLUMN "catalog_id" INTEGER;
UPDATE "attempts" a SET "catalog_id" = c."id" FROM "tool_catalogs" c WHERE a."catalog_ref" = c."ref";
DROP FUNCTION "tclab_attempt_request"(json, text, integer);
ALTER TABLE "attempts" DROP COLUMN "catalog_ref";

-- An attempt's request as it was sent: the stored text with its catalog's text put back where the `null`
-- placeholder stands (catalog_at: characters before it). The result is the same text as a whole request.
-- A request written over by hand without clearing catalog_id (no `null` at catalog_at) reads as stored.
CREATE FUNCTION "tclab_attempt_request"(request json, catalog_id integer, catalog_at integer) RETURNS json
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN catalog_id IS NULL OR substr(request::text, catalog_at + 1, 4) IS DISTINCT FROM 'null' THEN request
              ELSE overlay(request::text PLACING (SELECT c.body FROM "tool_catalogs" c WHERE c.id = catalog_id) FROM catalog_at + 1 FOR 4)::json END
$$;

-- The id of the catalog keyed `catalog_ref`, stored with `catalog_body` if it is not there yet (null: no catalog).
-- VOLATILE: each query inside takes a fresh snapshot, so a catalog another transaction stored meanwhile (the
-- INSERT's conflict) is found by the second look-up. A catalog not yet stored and given no body is an error.
CREATE FUNCTION "tclab_catalog_id"(catalog_ref text, catalog_body text) RETURNS integer
  LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  found_id integer;
BEGIN
  IF catalog_ref IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT c.id INTO found_id FROM "tool_catalogs" c WHERE c.ref = catalog_ref;
  IF found_id IS NOT NULL THEN
    RETURN found_id;
  END IF;
  INSERT INTO "tool_catalogs" (ref, body) VALUES (catalog_ref, catalog_body) ON CONFLICT (ref) DO NOTHING RETURNING id INTO found_id;
  IF found_id IS NULL THEN
    SELECT c.id INTO found_id FROM "tool_catalogs" c WHERE c.ref = catalog_ref;
  END IF;
  RETURN found_id;
END
$$;
