CREATE TABLE "eth_balances" (
	"holder" text PRIMARY KEY NOT NULL,
	"balance_units" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "eth_balances_updated_idx" ON "eth_balances" USING btree ("updated_at");