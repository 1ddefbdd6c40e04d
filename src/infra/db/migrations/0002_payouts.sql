CREATE TABLE "leg_attempts" (
	"tx_hash" text PRIMARY KEY NOT NULL,
	"leg_id" text NOT NULL,
	"raw_tx" text NOT NULL,
	"max_fee_per_gas" numeric(78, 0) NOT NULL,
	"max_priority_fee_per_gas" numeric(78, 0) NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"broadcast_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "payout_legs" (
	"id" text PRIMARY KEY NOT NULL,
	"payout_id" text NOT NULL,
	"kind" text NOT NULL,
	"signer" text NOT NULL,
	"nonce" bigint NOT NULL,
	"to_address" text NOT NULL,
	"amount_units" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"block_number" bigint,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "payout_legs_kind_check" CHECK ("payout_legs"."kind" in ('contributor', 'fee')),
	CONSTRAINT "payout_legs_status_check" CHECK ("payout_legs"."status" in ('signed', 'sent', 'success', 'reverted'))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" text PRIMARY KEY NOT NULL,
	"submission_id" text NOT NULL,
	"bounty_id" text NOT NULL,
	"token_address" text NOT NULL,
	"from_address" text NOT NULL,
	"contributor_address" text NOT NULL,
	"treasury_address" text NOT NULL,
	"reward_units" numeric(78, 0) NOT NULL,
	"contributor_units" numeric(78, 0) NOT NULL,
	"fee_units" numeric(78, 0) NOT NULL,
	"review_notes" text,
	"status" text NOT NULL,
	"last_error" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."status" in ('pending', 'confirmed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "signer_nonces" (
	"address" text PRIMARY KEY NOT NULL,
	"next_nonce" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_keys" (
	"agent_id" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"encrypted_key" text NOT NULL,
	"wrapped_data_key" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leg_attempts" ADD CONSTRAINT "leg_attempts_leg_id_payout_legs_id_fk" FOREIGN KEY ("leg_id") REFERENCES "public"."payout_legs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_bounty_id_bounties_id_fk" FOREIGN KEY ("bounty_id") REFERENCES "public"."bounties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_keys" ADD CONSTRAINT "wallet_keys_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "leg_attempts_leg_idx" ON "leg_attempts" USING btree ("leg_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_legs_live_key" ON "payout_legs" USING btree ("payout_id","kind") WHERE "payout_legs"."status" <> 'reverted';--> statement-breakpoint
CREATE UNIQUE INDEX "payout_legs_signer_nonce_key" ON "payout_legs" USING btree ("signer","nonce");--> statement-breakpoint
CREATE INDEX "payout_legs_payout_idx" ON "payout_legs" USING btree ("payout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_submission_key" ON "payouts" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "payouts_unfinished_idx" ON "payouts" USING btree ("updated_at") WHERE "payouts"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_keys_address_key" ON "wallet_keys" USING btree (lower("address"));