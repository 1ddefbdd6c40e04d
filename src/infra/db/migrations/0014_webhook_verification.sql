-- Closed to abuse, webhooks: a webhook is sent events only once its URL answered a verification
-- challenge (verified_at), and requests to one destination host are counted per minute across
-- all agents (webhook_host_budget). Existing webhooks start unverified, like new ones: none of
-- them ever proved its endpoint wants the traffic; their owners verify them (POST .../verify).
CREATE TABLE "webhook_host_budget" (
	"window_start" timestamp (3) with time zone NOT NULL,
	"host" text NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "webhook_host_budget_window_start_host_pk" PRIMARY KEY("window_start","host")
);
--> statement-breakpoint
ALTER TABLE "agent_webhooks" ADD COLUMN "verified_at" timestamp (3) with time zone;