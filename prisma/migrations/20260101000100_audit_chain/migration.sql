-- CreateTable
CREATE TABLE "audit_chain" (
    "id" TEXT NOT NULL,
    "head_seq" BIGINT NOT NULL DEFAULT 0,
    "head_hash" TEXT NOT NULL,
    "base_seq" BIGINT NOT NULL DEFAULT 0,
    "base_hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_chain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_checkpoints" (
    "id" BIGSERIAL NOT NULL,
    "seq" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "pruned" INTEGER NOT NULL,
    "pruned_before" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_checkpoints_pkey" PRIMARY KEY ("id")
);
