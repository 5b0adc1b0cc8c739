-- First use of a grant (issue 13 point 7): set once beside last use, never overwritten.

-- AlterTable
ALTER TABLE "oauth_grants" ADD COLUMN "first_used_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "gitea_grants" ADD COLUMN "first_used_at" TIMESTAMPTZ(3);
