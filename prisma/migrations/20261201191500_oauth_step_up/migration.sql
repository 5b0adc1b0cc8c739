-- Scope elevation events (checklist B12): the latest step-up refusal on a grant, kept until the
-- elevated grant of the same person and client names it as its correlation id.

-- AlterTable
ALTER TABLE "oauth_grants" ADD COLUMN "step_up_event_id" TEXT,
ADD COLUMN "step_up_at" TIMESTAMPTZ(3);
