-- UNLOGGED: counters need no crash safety, and skipping the WAL keeps the chat path cheap (decision 020).
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" bigint[],
	"tat" bigint,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expires_at_idx" ON "rate_limits" USING btree ("expires_at");