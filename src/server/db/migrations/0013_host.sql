CREATE TABLE "host_nudges" (
	"mixer_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"prompt" text NOT NULL,
	"reply" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "host_nudges_mixer_id_user_id_pk" PRIMARY KEY("mixer_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "host_poll_votes" (
	"poll_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"option" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "host_poll_votes_poll_id_user_id_pk" PRIMARY KEY("poll_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "host_polls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mixer_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"question" text NOT NULL,
	"options" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "host_polls_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "host_topic_prompts" (
	"topic" text PRIMARY KEY NOT NULL,
	"prompts" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "mixer_hosts" (
	"mixer_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"prompts_posted" integer DEFAULT 0 NOT NULL,
	"slots_done" integer DEFAULT 0 NOT NULL,
	"last_host_at" timestamp with time zone,
	"current_prompt" text,
	"game_at" timestamp with time zone,
	"wrapup_at" timestamp with time zone,
	"updated_by" text
);
--> statement-breakpoint
ALTER TABLE "host_nudges" ADD CONSTRAINT "host_nudges_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_nudges" ADD CONSTRAINT "host_nudges_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_poll_votes" ADD CONSTRAINT "host_poll_votes_poll_id_host_polls_id_fk" FOREIGN KEY ("poll_id") REFERENCES "public"."host_polls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_poll_votes" ADD CONSTRAINT "host_poll_votes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_polls" ADD CONSTRAINT "host_polls_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_polls" ADD CONSTRAINT "host_polls_message_id_mixer_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."mixer_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "host_topic_prompts" ADD CONSTRAINT "host_topic_prompts_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_hosts" ADD CONSTRAINT "mixer_hosts_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_hosts" ADD CONSTRAINT "mixer_hosts_updated_by_user_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "host_polls_mixer_idx" ON "host_polls" USING btree ("mixer_id");