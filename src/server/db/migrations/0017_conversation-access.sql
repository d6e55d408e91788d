CREATE TABLE "hidden_lines" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"message_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hidden_lines_user_id_kind_message_id_pk" PRIMARY KEY("user_id","kind","message_id")
);
--> statement-breakpoint
CREATE TABLE "mixer_mutes" (
	"user_id" text NOT NULL,
	"mixer_id" uuid NOT NULL,
	"muted_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mixer_mutes_user_id_mixer_id_muted_id_pk" PRIMARY KEY("user_id","mixer_id","muted_id")
);
--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "ended_by" text;--> statement-breakpoint
ALTER TABLE "hidden_lines" ADD CONSTRAINT "hidden_lines_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_mutes" ADD CONSTRAINT "mixer_mutes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_mutes" ADD CONSTRAINT "mixer_mutes_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_mutes" ADD CONSTRAINT "mixer_mutes_muted_id_user_id_fk" FOREIGN KEY ("muted_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mixer_mutes_muted_idx" ON "mixer_mutes" USING btree ("muted_id");--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_ended_by_user_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Issue 30 backfill: a blocked match belongs to whoever blocked (an older unmatch has no record of who did it, so nobody keeps it).
UPDATE "matches" m SET "ended_by" = b."blocker_id" FROM "blocks" b WHERE m."status" = 'blocked' AND m."ended_by" IS NULL AND ((b."blocker_id" = m."profile1_id" AND b."blocked_id" = m."profile2_id") OR (b."blocker_id" = m."profile2_id" AND b."blocked_id" = m."profile1_id"));
