-- Payouts run on the one transaction engine (issue 25): each payout leg becomes an intent of the
-- payout key in wallet_intents (its id kept, payout_id set, no agent), each of its signed attempts a
-- wallet_txs row, and the payout key's counter moves to account_nonces (addresses lower case, as
-- the engine keeps them). The call a leg made (to, data, gas) is read back from its latest signed
-- bytes when the service starts (TransactionEngine.backfillCalls): SQL cannot decode them.
ALTER TABLE "wallet_intents" ALTER COLUMN "agent_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "wallet_intents" ADD COLUMN "payout_id" text;--> statement-breakpoint
ALTER TABLE "wallet_intents" ADD CONSTRAINT "wallet_intents_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
INSERT INTO "wallet_intents" ("id", "agent_id", "payout_id", "request_key", "kind", "project_id", "holder",
  "signer", "nonce", "to_address", "data", "value_units", "gas", "status", "tx_hash", "block_number",
  "error_code", "error_message", "told", "counted", "final", "created_at", "updated_at")
SELECT l."id", NULL, l."payout_id", NULL,
  CASE l."kind" WHEN 'payout' THEN 'payout' WHEN 'contributor' THEN 'payout_contributor' ELSE 'payout_fee' END,
  (SELECT b."project_id" FROM "bounties" b WHERE b."id" = p."bounty_id"),
  lower(p."from_address"), lower(l."signer"), l."nonce", '', '', 0, 0,
  -- A revert whose receipt a reorg took away may still mine: in flight.
  CASE WHEN l."status" = 'success' THEN 'confirmed'
       WHEN l."status" IN ('signed', 'sent') OR (l."status" = 'reverted' AND l."block_number" IS NULL) THEN 'pending'
       ELSE 'failed' END,
  l."tx_hash", l."block_number",
  CASE WHEN l."status" = 'reverted' AND l."block_number" IS NOT NULL OR l."status" = 'dropped'
       THEN 'upstream_error' END,
  CASE WHEN l."status" = 'reverted' AND l."block_number" IS NOT NULL
       THEN 'The transaction reverted on chain (' || l."tx_hash" || ').'
       WHEN l."status" = 'dropped' THEN 'Its nonce was used by another transaction: it moved nothing.' END,
  -- Paid more than an hour ago: far deeper than PAYOUT_CONFIRMATIONS, so no longer watched.
  NULL, true, l."status" = 'success' AND l."updated_at" < now() - interval '1 hour', l."created_at", l."updated_at"
FROM "payout_legs" l JOIN "payouts" p ON p."id" = l."payout_id";--> statement-breakpoint
INSERT INTO "wallet_txs" ("hash", "signer", "nonce", "raw", "kind", "agent_id", "project_id", "intent_id",
  "max_fee_per_gas", "max_priority_fee_per_gas", "broadcast_at", "block_number", "status", "created_at", "updated_at")
SELECT a."tx_hash", lower(l."signer"), l."nonce", a."raw_tx",
  CASE l."kind" WHEN 'payout' THEN 'payout' WHEN 'contributor' THEN 'payout_contributor' ELSE 'payout_fee' END,
  NULL, NULL, l."id", a."max_fee_per_gas", a."max_priority_fee_per_gas", a."broadcast_at",
  CASE WHEN a."tx_hash" = l."tx_hash" THEN l."block_number" END,
  CASE WHEN a."tx_hash" = l."tx_hash" AND l."status" = 'success' THEN 'mined'
       WHEN a."tx_hash" = l."tx_hash" AND l."status" = 'reverted' AND l."block_number" IS NOT NULL THEN 'reverted'
       WHEN a."tx_hash" = l."tx_hash" AND l."status" = 'reverted' THEN 'sent'
       WHEN l."status" IN ('signed', 'sent') AND a."broadcast_at" IS NULL THEN 'signed'
       WHEN l."status" IN ('signed', 'sent') THEN 'sent'
       WHEN l."status" = 'dropped' THEN 'dropped'
       ELSE 'replaced' END,
  a."created_at", l."updated_at"
FROM "leg_attempts" a JOIN "payout_legs" l ON l."id" = a."leg_id"
ON CONFLICT ("hash") DO NOTHING;--> statement-breakpoint
INSERT INTO "account_nonces" ("address", "next_nonce")
SELECT lower("address"), "next_nonce" FROM "signer_nonces"
ON CONFLICT ("address") DO UPDATE SET "next_nonce" = greatest("account_nonces"."next_nonce", excluded."next_nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_intents_payout_live" ON "wallet_intents" USING btree ("payout_id","kind") WHERE "wallet_intents"."payout_id" is not null and "wallet_intents"."status" <> 'failed';--> statement-breakpoint
CREATE INDEX "wallet_intents_payout_idx" ON "wallet_intents" USING btree ("payout_id");--> statement-breakpoint
DROP TABLE "leg_attempts";--> statement-breakpoint
DROP TABLE "payout_legs";--> statement-breakpoint
DROP TABLE "signer_nonces";
