CREATE TABLE "account_nonces" (
	"address" text PRIMARY KEY NOT NULL,
	"next_nonce" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holder_scans" (
	"holder" text PRIMARY KEY NOT NULL,
	"scanned_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_balances" (
	"token_address" text NOT NULL,
	"holder" text NOT NULL,
	"balance_units" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "token_balances_token_address_holder_pk" PRIMARY KEY("token_address","holder")
);
--> statement-breakpoint
CREATE TABLE "token_states" (
	"token_address" text PRIMARY KEY NOT NULL,
	"curve_a" numeric(78, 0) NOT NULL,
	"curve_b" numeric(78, 0) NOT NULL,
	"supply_units" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_txs" (
	"hash" text PRIMARY KEY NOT NULL,
	"signer" text NOT NULL,
	"nonce" bigint NOT NULL,
	"raw" text NOT NULL,
	"kind" text NOT NULL,
	"agent_id" text,
	"project_id" text,
	"status" text DEFAULT 'signed' NOT NULL,
	"gas_paid_units" numeric(78, 0),
	"gas_refund_units" numeric(78, 0),
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "wallet_txs_nonce_check" CHECK ("wallet_txs"."nonce" >= 0)
);
--> statement-breakpoint
ALTER TABLE "wallet_txs" ADD CONSTRAINT "wallet_txs_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_balances_holder_idx" ON "token_balances" USING btree ("holder");--> statement-breakpoint
CREATE INDEX "wallet_txs_open_idx" ON "wallet_txs" USING btree ("signer","nonce") WHERE "wallet_txs"."status" in ('signed', 'sent');--> statement-breakpoint
CREATE INDEX "wallet_txs_sponsored_idx" ON "wallet_txs" USING btree ("agent_id","kind","created_at") WHERE "wallet_txs"."kind" like 'sponsored_%';