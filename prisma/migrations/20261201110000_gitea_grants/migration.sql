-- CreateTable
CREATE TABLE "people" (
    "id" TEXT NOT NULL,
    "gitea_user_id" BIGINT NOT NULL,
    "login" TEXT NOT NULL,
    "is_site_admin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "people_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gitea_grants" (
    "id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "access" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "key_id" TEXT,
    "access_token_enc" TEXT,
    "refresh_token_enc" TEXT,
    "access_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "refreshed_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "checked_at" TIMESTAMPTZ(3),
    "refresh_lease_until" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,

    CONSTRAINT "gitea_grants_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gitea_signin_states" (
    "id" TEXT NOT NULL,
    "browser_hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "access" TEXT NOT NULL,
    "context" JSONB NOT NULL,
    "key_id" TEXT NOT NULL,
    "verifier_enc" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gitea_signin_states_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "people_gitea_user_id_key" ON "people"("gitea_user_id");

-- CreateIndex
CREATE INDEX "people_login_idx" ON "people"("login");

-- CreateIndex
CREATE UNIQUE INDEX "gitea_grants_person_id_key" ON "gitea_grants"("person_id");

-- CreateIndex
CREATE INDEX "gitea_grants_status_access_expires_at_idx" ON "gitea_grants"("status", "access_expires_at");

-- CreateIndex
CREATE INDEX "gitea_grants_status_checked_at_idx" ON "gitea_grants"("status", "checked_at");

-- CreateIndex
CREATE INDEX "gitea_grants_key_id_idx" ON "gitea_grants"("key_id");

-- CreateIndex
CREATE INDEX "gitea_signin_states_expires_at_idx" ON "gitea_signin_states"("expires_at");

-- AddForeignKey
ALTER TABLE "gitea_grants" ADD CONSTRAINT "gitea_grants_person_id_fkey" FOREIGN KEY ("person_id") REFERENCES "people"("id") ON DELETE CASCADE ON UPDATE CASCADE;
