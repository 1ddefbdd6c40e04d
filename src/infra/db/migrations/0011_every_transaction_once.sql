CREATE TABLE "wallet_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"request_key" text,
	"kind" text NOT NULL,
	"project_id" text,
	"holder" text NOT NULL,
	"signer" text NOT NULL,
	"nonce" bigint NOT NULL,
	"to_address" text NOT NULL,
	"data" text NOT NULL,
	"value_units" numeric(78, 0) NOT NULL,
	"gas" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"tx_hash" text,
	"block_number" bigint,
	"result" jsonb,
	"error_code" text,
	"error_message" text,
	"told" text,
	"counted" boolean DEFAULT true NOT NULL,
	"final" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_nonces" ADD COLUMN "busy_token" text;--> statement-breakpoint
ALTER TABLE "account_nonces" ADD COLUMN "busy_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "wallet_txs" ADD COLUMN "intent_id" text;--> statement-breakpoint
ALTER TABLE "wallet_txs" ADD COLUMN "max_fee_per_gas" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "wallet_txs" ADD COLUMN "max_priority_fee_per_gas" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "wallet_txs" ADD COLUMN "broadcast_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "wallet_txs" ADD COLUMN "block_number" bigint;--> statement-breakpoint
ALTER TABLE "wallet_intents" ADD CONSTRAINT "wallet_intents_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_intents_request_key" ON "wallet_intents" USING btree ("agent_id","request_key");--> statement-breakpoint
CREATE INDEX "wallet_intents_agent_idx" ON "wallet_intents" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_intents_open_idx" ON "wallet_intents" USING btree ("signer","nonce") WHERE "wallet_intents"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "wallet_intents_unfinal_idx" ON "wallet_intents" USING btree ("block_number") WHERE "wallet_intents"."status" = 'confirmed' and not "wallet_intents"."final";--> statement-breakpoint
CREATE INDEX "wallet_txs_intent_idx" ON "wallet_txs" USING btree ("intent_id");