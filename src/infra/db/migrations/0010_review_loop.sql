ALTER TABLE "submissions" DROP CONSTRAINT "submissions_status_check";--> statement-breakpoint
DROP INDEX "submissions_pr_url_live_key";--> statement-breakpoint
ALTER TABLE "bounties" ADD COLUMN "revision_due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "pull_request" jsonb;--> statement-breakpoint
CREATE INDEX "bounties_revision_due_at_idx" ON "bounties" USING btree ("revision_due_at") WHERE "bounties"."status" = 'claimed' and "bounties"."revision_due_at" is not null;--> statement-breakpoint
CREATE INDEX "submissions_head_sha_idx" ON "submissions" USING btree (("pull_request" ->> 'head_sha')) WHERE "submissions"."status" in ('pending', 'changes_requested');--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_pr_url_live_key" ON "submissions" USING btree ("pr_url") WHERE "submissions"."status" not in ('rejected', 'changes_requested');--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('pending', 'approved', 'rejected', 'changes_requested'));