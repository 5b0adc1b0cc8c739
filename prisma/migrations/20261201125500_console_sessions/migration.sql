-- CreateTable
CREATE TABLE "console_sessions" (
    "key" TEXT NOT NULL,
    "person_id" TEXT,
    "login" TEXT NOT NULL,
    "is_site_admin" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "console_sessions_person_id_idx" ON "console_sessions"("person_id");

-- CreateIndex
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");
