-- CreateTable
CREATE TABLE "org_policies" (
    "org" TEXT NOT NULL,
    "disabled_tools" JSONB NOT NULL,
    "secret_detection_mode" TEXT,
    "read_only" BOOLEAN NOT NULL DEFAULT false,
    "allowed_repos" JSONB,
    "tool_calls_per_minute" INTEGER,
    "write_calls_per_hour" INTEGER,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "org_policies_pkey" PRIMARY KEY ("org")
);

-- CreateTable
CREATE TABLE "org_policy_changes" (
    "id" BIGSERIAL NOT NULL,
    "org" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changed_by" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB NOT NULL,

    CONSTRAINT "org_policy_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "org_policy_changes_org_version_key" ON "org_policy_changes"("org", "version");

-- CreateIndex
CREATE INDEX "org_policy_changes_org_changed_at_idx" ON "org_policy_changes"("org", "changed_at");
