DROP INDEX "submissions_pr_url_key";--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "repo_login" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "merged_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "merged_by" text;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "founder_merged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "agents_repo_login_key" ON "agents" USING btree (lower("repo_login"));--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_pr_url_live_key" ON "submissions" USING btree ("pr_url") WHERE "submissions"."status" <> 'rejected';