-- CreateTable
CREATE TABLE "audit_records" (
    "id" BIGSERIAL NOT NULL,
    "seq" BIGINT NOT NULL,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "login" TEXT,
    "mode" TEXT,
    "sudo" TEXT,
    "client_name" TEXT,
    "client_version" TEXT,
    "tool" TEXT NOT NULL,
    "operation_id" TEXT,
    "org" TEXT,
    "repo" TEXT,
    "method" TEXT,
    "path" TEXT,
    "status" INTEGER,
    "kind" TEXT,
    "duration_ms" DOUBLE PRECISION NOT NULL,
    "result_bytes" INTEGER NOT NULL,
    "redactions" INTEGER NOT NULL,
    "masks" INTEGER NOT NULL,
    "blocked" BOOLEAN NOT NULL,
    "arguments" JSONB,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "audit_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_records_seq_key" ON "audit_records"("seq");

-- CreateIndex
CREATE UNIQUE INDEX "audit_records_event_id_key" ON "audit_records"("event_id");

-- CreateIndex
CREATE INDEX "audit_records_created_at_idx" ON "audit_records"("created_at");

-- CreateIndex
CREATE INDEX "audit_records_login_idx" ON "audit_records"("login");

-- CreateIndex
CREATE INDEX "audit_records_org_idx" ON "audit_records"("org");

-- CreateIndex
CREATE INDEX "audit_records_tool_idx" ON "audit_records"("tool");
