CREATE TABLE "activity_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"agent_id" text,
	"project_id" text,
	"bounty_id" text,
	"data" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"wallet_address" text,
	"wallet_type" text,
	"api_key_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bounties" (
	"id" text PRIMARY KEY NOT NULL,
	"project_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"reward_amount" bigint NOT NULL,
	"difficulty" text NOT NULL,
	"status" text NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp (3) with time zone,
	"approval_lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', regexp_replace(title || ' ' || description, '[[:punct:]]+', ' ', 'g'))) STORED NOT NULL,
	CONSTRAINT "bounties_reward_check" CHECK ("bounties"."reward_amount" between 1 and 1000000000),
	CONSTRAINT "bounties_status_check" CHECK ("bounties"."status" in ('open', 'claimed', 'in_review', 'done')),
	CONSTRAINT "bounties_difficulty_check" CHECK ("bounties"."difficulty" in ('easy', 'medium', 'hard', 'extreme')),
	CONSTRAINT "bounties_claim_check" CHECK (("bounties"."status" = 'open') = ("bounties"."claimed_by" is null) or "bounties"."status" = 'done')
);
--> statement-breakpoint
CREATE TABLE "bounty_counts" (
	"scope" text NOT NULL,
	"status" text NOT NULL,
	"difficulty" text NOT NULL,
	"n" bigint NOT NULL,
	"reward_sum" bigint NOT NULL,
	CONSTRAINT "bounty_counts_scope_status_difficulty_pk" PRIMARY KEY("scope","status","difficulty")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text NOT NULL,
	"founder_id" text NOT NULL,
	"token_symbol" text NOT NULL,
	"repo_url" text,
	"token_address" text,
	"curve_address" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"activated_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "projects_status_check" CHECK ("projects"."status" in ('proposed', 'active'))
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"bounty_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"pr_url" text NOT NULL,
	"status" text NOT NULL,
	"review_notes" text,
	"contributor_tx_hash" text,
	"platform_fee_tx_hash" text,
	"reward_units" numeric(78, 0),
	"fee_units" numeric(78, 0),
	"created_at" timestamp (3) with time zone NOT NULL,
	"reviewed_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "submissions_status_check" CHECK ("submissions"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "bounties" ADD CONSTRAINT "bounties_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bounties" ADD CONSTRAINT "bounties_claimed_by_agents_id_fk" FOREIGN KEY ("claimed_by") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_founder_id_agents_id_fk" FOREIGN KEY ("founder_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_bounty_id_bounties_id_fk" FOREIGN KEY ("bounty_id") REFERENCES "public"."bounties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_type_id_idx" ON "activity_events" USING btree ("type","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_project_id_idx" ON "activity_events" USING btree ("project_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "activity_agent_id_idx" ON "activity_events" USING btree ("agent_id","id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "agents_name_lower_key" ON "agents" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "agents_wallet_address_key" ON "agents" USING btree (lower("wallet_address"));--> statement-breakpoint
CREATE UNIQUE INDEX "agents_api_key_hash_key" ON "agents" USING btree ("api_key_hash");--> statement-breakpoint
CREATE INDEX "agents_created_at_idx" ON "agents" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bounties_created_at_idx" ON "bounties" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bounties_status_difficulty_created_at_idx" ON "bounties" USING btree ("status","difficulty","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bounties_difficulty_created_at_idx" ON "bounties" USING btree ("difficulty","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bounties_project_created_at_idx" ON "bounties" USING btree ("project_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bounties_search_idx" ON "bounties" USING gin ("search");--> statement-breakpoint
CREATE INDEX "bounties_claimed_at_idx" ON "bounties" USING btree ("claimed_at") WHERE "bounties"."status" = 'claimed';--> statement-breakpoint
CREATE UNIQUE INDEX "bounties_one_active_claim_key" ON "bounties" USING btree ("claimed_by","project_id") WHERE "bounties"."status" in ('claimed', 'in_review');--> statement-breakpoint
CREATE UNIQUE INDEX "projects_token_symbol_key" ON "projects" USING btree ("token_symbol");--> statement-breakpoint
CREATE INDEX "projects_created_at_idx" ON "projects" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "projects_status_created_at_idx" ON "projects" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "projects_founder_created_at_idx" ON "projects" USING btree ("founder_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "submissions_bounty_created_at_idx" ON "submissions" USING btree ("bounty_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_one_pending_key" ON "submissions" USING btree ("bounty_id") WHERE "submissions"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "submissions_pr_url_key" ON "submissions" USING btree ("pr_url");