import { sql } from 'drizzle-orm';
import { boolean, date, integer, jsonb, pgTable, serial, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { user } from './auth';

export const profiles = pgTable('profiles', {
  id: text('id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  fullName: text('full_name'),
  pronouns: text('pronouns'),
  bio: text('bio'),
  /** Storage key of the profile picture, never a public URL. */
  avatarUrl: text('avatar_url'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  dob: date('dob'),
  genderIdentities: text('gender_identities').array().notNull().default(sql`'{}'::text[]`),
  sexualOrientations: text('sexual_orientations').array().notNull().default(sql`'{}'::text[]`),
  lookingFor: text('looking_for').array().notNull().default(sql`'{}'::text[]`),
  interests: text('interests').array().notNull().default(sql`'{}'::text[]`),
  /** Storage keys of the other photos. */
  photos: text('photos').array().notNull().default(sql`'{}'::text[]`),
  funFact: text('fun_fact'),
  promptAnswer: text('prompt_answer'),
  smallJoy: text('small_joy'),
  loveToTalkAbout: text('love_to_talk_about'),
  valueInRelationships: text('value_in_relationships'),
  sharedExperience: text('shared_experience'),
  cityRegion: text('city_region'),
  countryCode: text('country_code'),
  tz: text('tz'),
  shareCityRegion: boolean('share_city_region').notNull().default(true),
  locationLastConfirmedAt: timestamp('location_last_confirmed_at', { withTimezone: true }),
  locationSource: text('location_source'),
  preferences: jsonb('preferences').notNull().default({}),
  onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
  /** Furthest wizard step reached (0..10), for the onboarding funnel. */
  onboardingStep: integer('onboarding_step').notNull().default(0),
  /** When the member is usually free: slot keys of the weekly grid (src/shared/availability.ts), in `tz`. */
  availability: text('availability').array().notNull().default(sql`'{}'::text[]`),
  /** Topics (predefined interest names) the member would join a mixer about. */
  topicAsks: text('topic_asks').array().notNull().default(sql`'{}'::text[]`),
});

export const genderOptions = pgTable('gender_options', {
  id: serial('id').primaryKey(),
  label: text('label').notNull().unique(),
  sortOrder: integer('sort_order').notNull(),
  isActive: boolean('is_active').notNull().default(true),
});

export const orientationOptions = pgTable('orientation_options', {
  id: serial('id').primaryKey(),
  label: text('label').notNull().unique(),
  sortOrder: integer('sort_order').notNull(),
  isActive: boolean('is_active').notNull().default(true),
});

export const predefinedInterests = pgTable('predefined_interests', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  category: text('category').notNull(),
  isActive: boolean('is_active').notNull().default(true),
});

export const interestSuggestions = pgTable('interest_suggestions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' }),
  submittedInterest: text('submitted_interest').notNull(),
  fullName: text('full_name').notNull(),
  status: text('status').notNull().default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  decidedBy: text('decided_by').references(() => user.id, { onDelete: 'set null' }),
});
