CREATE TABLE "payout_funds_locks" (
	"token_address" text NOT NULL,
	"from_address" text NOT NULL,
	CONSTRAINT "payout_funds_locks_token_address_from_address_pk" PRIMARY KEY("token_address","from_address")
);
--> statement-breakpoint
ALTER TABLE "payout_legs" DROP CONSTRAINT "payout_legs_kind_check";--> statement-breakpoint
ALTER TABLE "payout_legs" DROP CONSTRAINT "payout_legs_status_check";--> statement-breakpoint
DROP INDEX "payout_legs_live_key";--> statement-breakpoint
ALTER TABLE "bounties" ADD COLUMN "approval_lease_owner" text;--> statement-breakpoint
ALTER TABLE "bounties" ADD COLUMN "payment_owed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "payout_failed_reason" text;--> statement-breakpoint
CREATE INDEX "bounties_payment_owed_idx" ON "bounties" USING btree ("updated_at") WHERE "bounties"."payment_owed";--> statement-breakpoint
CREATE INDEX "payouts_in_flight_idx" ON "payouts" USING btree ("token_address","from_address") WHERE "payouts"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "payout_legs_live_key" ON "payout_legs" USING btree ("payout_id","kind") WHERE "payout_legs"."status" not in ('reverted', 'dropped');--> statement-breakpoint
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_kind_check" CHECK ("payout_legs"."kind" in ('payout', 'contributor', 'fee'));--> statement-breakpoint
ALTER TABLE "payout_legs" ADD CONSTRAINT "payout_legs_status_check" CHECK ("payout_legs"."status" in ('signed', 'sent', 'success', 'reverted', 'dropped'));--> statement-breakpoint
UPDATE "bounties" SET "payment_owed" = true WHERE "status" = 'in_review' AND EXISTS (SELECT 1 FROM "submissions" s WHERE s."bounty_id" = "bounties"."id" AND s."status" = 'pending' AND s."founder_merged");
