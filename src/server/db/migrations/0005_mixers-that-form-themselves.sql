CREATE TABLE "formation_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"group_size" integer DEFAULT 8 NOT NULL,
	"min_seats" integer DEFAULT 6 NOT NULL,
	"hold_hours" integer DEFAULT 12 NOT NULL,
	"max_invites_per_week" integer DEFAULT 3 NOT NULL,
	"lead_hours" integer DEFAULT 24 NOT NULL,
	"horizon_days" integer DEFAULT 7 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "formation_settings_single_row" CHECK ("formation_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "mixer_attendance" (
	"mixer_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"outcome" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mixer_attendance_mixer_id_user_id_pk" PRIMARY KEY("mixer_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "mixer_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mixer_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"side" text DEFAULT 'all' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"responded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "topic_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"topic" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"theme" text DEFAULT 'sunset' NOT NULL,
	"icebreaker" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "topic_templates_topic_unique" UNIQUE("topic")
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "availability" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "topic_asks" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "mixer_memberships" ADD COLUMN "left_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mixers" ADD COLUMN "origin" text DEFAULT 'admin' NOT NULL;--> statement-breakpoint
ALTER TABLE "mixers" ADD COLUMN "formation_key" text;--> statement-breakpoint
ALTER TABLE "formation_settings" ADD CONSTRAINT "formation_settings_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_attendance" ADD CONSTRAINT "mixer_attendance_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_attendance" ADD CONSTRAINT "mixer_attendance_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_invitations" ADD CONSTRAINT "mixer_invitations_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_invitations" ADD CONSTRAINT "mixer_invitations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_templates" ADD CONSTRAINT "topic_templates_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mixer_attendance_user_recorded_idx" ON "mixer_attendance" USING btree ("user_id","recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mixer_invitations_mixer_user_uq" ON "mixer_invitations" USING btree ("mixer_id","user_id");--> statement-breakpoint
CREATE INDEX "mixer_invitations_user_created_idx" ON "mixer_invitations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "mixer_invitations_status_expires_idx" ON "mixer_invitations" USING btree ("status","expires_at");--> statement-breakpoint
ALTER TABLE "mixers" ADD CONSTRAINT "mixers_formation_key_unique" UNIQUE("formation_key");--> statement-breakpoint
INSERT INTO "formation_settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;