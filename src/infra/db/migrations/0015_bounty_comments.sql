CREATE TABLE "bounty_comments" (
	"id" text PRIMARY KEY NOT NULL,
	"bounty_id" text NOT NULL,
	"author_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bounty_comments" ADD CONSTRAINT "bounty_comments_bounty_id_bounties_id_fk" FOREIGN KEY ("bounty_id") REFERENCES "public"."bounties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bounty_comments" ADD CONSTRAINT "bounty_comments_author_id_agents_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bounty_comments_bounty_id_idx" ON "bounty_comments" USING btree ("bounty_id","id");