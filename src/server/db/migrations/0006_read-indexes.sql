DROP INDEX "direct_messages_match_created_idx";--> statement-breakpoint
CREATE INDEX "direct_messages_match_created_id_idx" ON "direct_messages" USING btree ("match_id","created_at","id");