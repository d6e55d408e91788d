-- Issue 12 (docs/decisions/008): bidi embeddings, overrides and isolates (U+202A–U+202E,
-- U+2066–U+2069) are stripped from member text on input; this strips them from text stored
-- before, wherever other members read it. Data only, no schema change.
UPDATE "user" SET "name" = regexp_replace("name", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "name" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "full_name" = regexp_replace("full_name", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "full_name" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "pronouns" = regexp_replace("pronouns", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "pronouns" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "bio" = regexp_replace("bio", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "bio" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "fun_fact" = regexp_replace("fun_fact", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "fun_fact" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "prompt_answer" = regexp_replace("prompt_answer", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "prompt_answer" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "small_joy" = regexp_replace("small_joy", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "small_joy" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "love_to_talk_about" = regexp_replace("love_to_talk_about", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "love_to_talk_about" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "value_in_relationships" = regexp_replace("value_in_relationships", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "value_in_relationships" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "shared_experience" = regexp_replace("shared_experience", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "shared_experience" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE profiles SET "city_region" = regexp_replace("city_region", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "city_region" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE mixer_messages SET "body" = regexp_replace("body", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "body" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE direct_messages SET "body" = regexp_replace("body", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "body" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE mixers SET "title" = regexp_replace("title", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "title" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE mixers SET "topic" = regexp_replace("topic", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "topic" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE mixers SET "description" = regexp_replace("description", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "description" ~ '[\u202A-\u202E\u2066-\u2069]';
--> statement-breakpoint
UPDATE mixers SET "icebreaker" = regexp_replace("icebreaker", '[\u202A-\u202E\u2066-\u2069]', '', 'g') WHERE "icebreaker" ~ '[\u202A-\u202E\u2066-\u2069]';
