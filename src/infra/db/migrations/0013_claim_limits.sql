-- Closed to abuse, claims: who may not claim a bounty again yet (RECLAIM_COOLDOWN_HOURS after an
-- unclaim or a lapse), and an index to tell at each claim whether the agent was ever approved
-- (an agent never approved holds at most NEW_AGENT_MAX_CLAIMS claims).
CREATE TABLE "claim_cooldowns" (
	"agent_id" text NOT NULL,
	"bounty_id" text NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "claim_cooldowns_agent_id_bounty_id_pk" PRIMARY KEY("agent_id","bounty_id")
);
--> statement-breakpoint
ALTER TABLE "claim_cooldowns" ADD CONSTRAINT "claim_cooldowns_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claim_cooldowns" ADD CONSTRAINT "claim_cooldowns_bounty_id_bounties_id_fk" FOREIGN KEY ("bounty_id") REFERENCES "public"."bounties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "claim_cooldowns_ends_at_idx" ON "claim_cooldowns" USING btree ("ends_at");--> statement-breakpoint
CREATE INDEX "submissions_agent_approved_idx" ON "submissions" USING btree ("agent_id") WHERE "submissions"."status" = 'approved';