-- The experiment designer (issue 9): a server-side draft per experiment (saved as you go, never frozen),
-- archiving (hidden from the list; nothing of its runs is removed), the stored price table of the cost
-- estimate, and tool snapshots: the raw tools/list entries of an MCP server (or a tool file) as received.
ALTER TABLE "experiments" ADD COLUMN "archived_at" TIMESTAMP(3);

CREATE TABLE "experiment_drafts" (
  "slug" TEXT NOT NULL,
  "base_version" INTEGER,
  "content" JSONB NOT NULL,
  "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "experiment_drafts_pkey" PRIMARY KEY ("slug")
);

CREATE TABLE "price_tables" (
  "id" TEXT NOT NULL,
  "prices" JSONB NOT NULL,
  "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "price_tables_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "tool_snapshots" (
  "id" TEXT NOT NULL,
  "sha256" TEXT NOT NULL,
  "server_name" TEXT,
  "server_version" TEXT,
  "protocol_version" TEXT,
  "source" JSONB NOT NULL,
  "tools" JSON NOT NULL,
  "tool_count" INTEGER NOT NULL,
  "taken_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "tool_snapshots_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "tool_snapshots_sha256_idx" ON "tool_snapshots"("sha256");
