ALTER TABLE "verification_challenges" ADD COLUMN "blink_at_ms" integer;--> statement-breakpoint
ALTER TABLE "verification_challenges" ADD COLUMN "outcome" text;--> statement-breakpoint
CREATE INDEX "verification_challenges_user_idx" ON "verification_challenges" USING btree ("user_id","created_at");