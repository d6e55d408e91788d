CREATE TABLE "mixer_reads" (
	"mixer_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"read_at" timestamp (6) with time zone NOT NULL,
	CONSTRAINT "mixer_reads_mixer_id_user_id_pk" PRIMARY KEY("mixer_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "mixer_messages" ADD COLUMN "mentions" jsonb;--> statement-breakpoint
ALTER TABLE "mixer_reads" ADD CONSTRAINT "mixer_reads_mixer_id_mixers_id_fk" FOREIGN KEY ("mixer_id") REFERENCES "public"."mixers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mixer_reads" ADD CONSTRAINT "mixer_reads_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;