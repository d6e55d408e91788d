ALTER TABLE "mixer_memberships" ADD COLUMN "side" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "mixers" ADD COLUMN "audience_region" text;--> statement-breakpoint
ALTER TABLE "mixers" ADD COLUMN "age_min" integer DEFAULT 18 NOT NULL;--> statement-breakpoint
ALTER TABLE "mixers" ADD COLUMN "age_max" integer DEFAULT 99 NOT NULL;--> statement-breakpoint
ALTER TABLE "mixers" ADD COLUMN "seat_plan" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
-- Existing mixers keep working: online, all ages; Dating mixers become open to everyone (one
-- side the size of their old capacity) and their seats move onto that side (decision 010).
UPDATE "mixers" SET "seat_plan" = jsonb_build_array(jsonb_build_object('side', 'everyone', 'seats', "max_participants")) WHERE "intent" = 'Dating';--> statement-breakpoint
UPDATE "mixer_memberships" SET "side" = 'everyone' WHERE "mixer_id" IN (SELECT "id" FROM "mixers" WHERE "intent" = 'Dating');
