import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { readPreferences } from '../../../shared/schemas/settings';
import type { AppDeps } from '../../deps';
import {
  pushCoalesce,
  pushSubscriptions,
  account,
  appeals,
  auditLog,
  blocks,
  campaigns,
  contactMessages,
  dailyActivity,
  directMessageReactions,
  directMessages,
  fancies,
  hiddenWords,
  hostNudges,
  hostPollVotes,
  hostTopicPrompts,
  formationSettings,
  interestSuggestions,
  matches,
  mixerAttendance,
  mixerInvitations,
  mixerHosts,
  mixerMemberships,
  mixerMessageReactions,
  mixerMessages,
  mixerReads,
  mixers,
  moderationActions,
  profiles,
  profileViews,
  reports,
  session,
  topicTemplates,
  twoFactor,
  user,
} from '../../db/schema';
import { firstNameOf } from '../../lib/members';
import { photoRef } from '../profiles/service';
import { conversationVisibleTo } from '../matches/service';
import { linePrivacyExport } from '../line-privacy/service';
import { describeDevice } from '../../lib/device';
import { REMINDER_ACTION } from '../../lib/mixer-reminders';
import { verificationExportSections } from '../verification/service';

type Deps = Pick<AppDeps, 'database' | 'signer' | 'config'>;

/** Admin actions on another member or a report about one: their details (reasons) are that member's, not the admin's. */
const aboutAnotherMember = (action: string) => action.startsWith('member.') || action.startsWith('report.');

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** "fancy-data-2026-11-22.json" */
export const exportFileName = (now = new Date()) => `fancy-data-${now.toISOString().slice(0, 10)}.json`;

/**
 * Everything Fancy holds about a member, as one machine-readable document (Settings → Your
 * data). One section per table that references the member, named after the table, plus the
 * photos as signed links and the consents. Secrets are left out: password hashes, session
 * tokens, two-step secrets and backup codes. Other members appear only by id and first name, and
 * fancies others gave you stay private (a fancy is secret until it is mutual).
 */
export async function buildExport(deps: Deps, userId: string, now = new Date()) {
  const { db } = deps.database;
  const other = alias(profiles, 'other');
  const otherUser = alias(user, 'other_user');
  const nameOf = sql<string>`coalesce(nullif(btrim(${other.fullName}), ''), ${otherUser.name})`;

  const [me] = await db.select().from(user).where(eq(user.id, userId));
  if (!me) return null;
  const [profile] = await db.select().from(profiles).where(eq(profiles.id, userId));

  const [
    sessions,
    accounts,
    twoFactorRows,
    memberships,
    chatSent,
    fanciesGiven,
    matchRows,
    blocksMade,
    reportsMade,
    viewsOfMe,
    viewsMade,
    suggestions,
    contacts,
    audit,
    activity,
    mixersCreated,
    campaignsCreated,
  ] = await Promise.all([
    db.select().from(session).where(eq(session.userId, userId)).orderBy(desc(session.createdAt)),
    db
      .select({ providerId: account.providerId, createdAt: account.createdAt, updatedAt: account.updatedAt })
      .from(account)
      .where(eq(account.userId, userId)),
    db.select({ verified: twoFactor.verified }).from(twoFactor).where(eq(twoFactor.userId, userId)),
    db
      .select({
        mixerId: mixerMemberships.mixerId,
        mixerTitle: mixers.title,
        mixerStartsAt: mixers.startsAt,
        state: mixerMemberships.state,
        joinedAt: mixerMemberships.joinedAt,
      })
      .from(mixerMemberships)
      .innerJoin(mixers, eq(mixers.id, mixerMemberships.mixerId))
      .where(eq(mixerMemberships.userId, userId))
      .orderBy(asc(mixerMemberships.joinedAt)),
    db
      .select({ id: mixerMessages.id, mixerId: mixerMessages.mixerId, body: mixerMessages.body, createdAt: mixerMessages.createdAt })
      .from(mixerMessages)
      .where(eq(mixerMessages.senderId, userId))
      .orderBy(asc(mixerMessages.createdAt)),
    db
      .select({ toUserId: fancies.toUserId, toName: nameOf, mixerId: fancies.mixerId, createdAt: fancies.createdAt })
      .from(fancies)
      .leftJoin(otherUser, eq(otherUser.id, fancies.toUserId))
      .leftJoin(other, eq(other.id, fancies.toUserId))
      .where(eq(fancies.fromUserId, userId))
      .orderBy(asc(fancies.createdAt)),
    db
      .select({
        id: matches.id,
        otherUserId: otherUser.id,
        otherName: nameOf,
        status: matches.status,
        mixerId: matches.mixerId,
        createdAt: matches.createdAt,
        endedAt: matches.endedAt,
      })
      .from(matches)
      .leftJoin(
        otherUser,
        sql`${otherUser.id} = case when ${matches.profile1Id} = ${userId} then ${matches.profile2Id} else ${matches.profile1Id} end`,
      )
      .leftJoin(other, eq(other.id, otherUser.id))
      .where(or(eq(matches.profile1Id, userId), eq(matches.profile2Id, userId)))
      .orderBy(asc(matches.createdAt)),
    db.select({ blockedUserId: blocks.blockedId, createdAt: blocks.createdAt }).from(blocks).where(eq(blocks.blockerId, userId)),
    db
      .select({
        id: reports.id,
        reportedUserId: reports.reportedId,
        mixerId: reports.mixerId,
        reason: reports.reason,
        details: reports.details,
        status: reports.status,
        createdAt: reports.createdAt,
        resolvedAt: reports.resolvedAt,
      })
      .from(reports)
      .where(eq(reports.reporterId, userId)),
    db.select({ n: count() }).from(profileViews).where(eq(profileViews.viewedId, userId)),
    db.select({ viewedUserId: profileViews.viewedId, day: profileViews.day }).from(profileViews).where(eq(profileViews.viewerId, userId)),
    db
      .select({
        submittedInterest: interestSuggestions.submittedInterest,
        fullName: interestSuggestions.fullName,
        status: interestSuggestions.status,
        createdAt: interestSuggestions.createdAt,
      })
      .from(interestSuggestions)
      .where(eq(interestSuggestions.userId, userId)),
    db
      .select({
        name: contactMessages.name,
        email: contactMessages.email,
        topic: contactMessages.topic,
        message: contactMessages.message,
        createdAt: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(eq(contactMessages.userId, userId)),
    db
      .select({ action: auditLog.action, target: auditLog.target, details: auditLog.details, createdAt: auditLog.createdAt })
      .from(auditLog)
      .where(
        or(
          eq(auditLog.actorId, userId),
          and(eq(auditLog.action, REMINDER_ACTION), sql`split_part(${auditLog.target}, ':', 2) = ${userId}`),
        ),
      )
      .orderBy(asc(auditLog.createdAt)),
    db.select({ day: dailyActivity.day }).from(dailyActivity).where(eq(dailyActivity.userId, userId)).orderBy(asc(dailyActivity.day)),
    db
      .select({ id: mixers.id, title: mixers.title, startsAt: mixers.startsAt, createdAt: mixers.createdAt })
      .from(mixers)
      .where(eq(mixers.createdBy, userId)),
    db
      .select({ id: campaigns.id, label: campaigns.label, code: campaigns.code, createdAt: campaigns.createdAt })
      .from(campaigns)
      .where(eq(campaigns.createdBy, userId)),
  ]);

  // Direct messages: the member's own words in every conversation; the other's only in the
  // conversations the member may still see (an unmatch or a block by the other took those away).
  const matchIds = matchRows.map((m) => m.id);
  const dms = matchIds.length
    ? await db
        .select({
          id: directMessages.id,
          matchId: directMessages.matchId,
          senderId: directMessages.senderId,
          body: directMessages.body,
          isRead: directMessages.isRead,
          createdAt: directMessages.createdAt,
        })
        .from(directMessages)
        .where(
          and(
            inArray(directMessages.matchId, matchIds),
            or(
              eq(directMessages.senderId, userId),
              and(
                eq(directMessages.recipientId, userId),
                sql`exists (select 1 from matches m where m.id = ${directMessages.matchId} and ${conversationVisibleTo(userId)})`,
              ),
            ),
          ),
        )
        .orderBy(asc(directMessages.createdAt))
    : [];

  // Absolute links: the file is read outside the app.
  const link = (key: string) => {
    const ref = photoRef(deps.signer, key);
    return { key, url: `${deps.config.publicUrl}${ref.url}`, thumbUrl: `${deps.config.publicUrl}${ref.thumbUrl}` };
  };
  const photos = profile
    ? [
        ...(profile.avatarUrl ? [{ kind: 'profile picture', ...link(profile.avatarUrl) }] : []),
        ...profile.photos.map((key) => ({ kind: 'photo', ...link(key) })),
      ]
    : [];

  return {
    format: 'fancy-data-export',
    version: 1,
    exportedAt: now.toISOString(),
    notes: [
      'This file holds everything Fancy stores about you, one section per table.',
      'Photos are links that work for one hour while you are signed in to Fancy.',
      'Your reports ("reports"): the reason and the words you gave, and whether action was taken. The evidence a report keeps (the lines around it and the reported profile) is seen only by moderators and is not part of this file.',
      'Left out on purpose: your password (we only keep a one-way hash), session tokens and two-step verification secrets, and fancies other members gave you (they stay private unless they are mutual).',
    ],
    user: {
      id: me.id,
      email: me.email,
      emailVerified: me.emailVerified,
      name: me.name,
      role: me.role,
      banned: me.banned,
      banReason: me.banReason,
      twoFactorEnabled: Boolean(me.twoFactorEnabled),
      onboardingComplete: me.onboardingComplete,
      createdAt: iso(me.createdAt),
      updatedAt: iso(me.updatedAt),
      lastSeenAt: iso(me.lastSeenAt),
    },
    consents: {
      termsAndPrivacyAcceptedAt: iso(me.createdAt),
      termsAndPrivacyAcceptedBy: 'Creating the account (registration)',
      campaignAttribution: {
        utm_source: me.utmSource,
        utm_medium: me.utmMedium,
        utm_campaign: me.utmCampaign,
        campaign_code: me.campaignCode,
        campaign_label: me.campaignLabel,
      },
      emailNotifications: profile ? readPreferences(profile.preferences) : null,
      shareCityWithOthers: profile?.shareCityRegion ?? null,
    },
    profiles: profile
      ? {
          fullName: profile.fullName,
          pronouns: profile.pronouns,
          bio: profile.bio,
          dob: profile.dob,
          genderIdentities: profile.genderIdentities,
          sexualOrientations: profile.sexualOrientations,
          lookingFor: profile.lookingFor,
          interests: profile.interests,
          availability: profile.availability,
          topicAsks: profile.topicAsks,
          smallJoy: profile.smallJoy,
          loveToTalkAbout: profile.loveToTalkAbout,
          valueInRelationships: profile.valueInRelationships,
          sharedExperience: profile.sharedExperience,
          funFact: profile.funFact,
          promptAnswer: profile.promptAnswer,
          cityRegion: profile.cityRegion,
          countryCode: profile.countryCode,
          tz: profile.tz,
          shareCityRegion: profile.shareCityRegion,
          locationSource: profile.locationSource,
          locationLastConfirmedAt: iso(profile.locationLastConfirmedAt),
          preferences: profile.preferences,
          onboardingCompleted: profile.onboardingCompleted,
          onboardingStep: profile.onboardingStep,
          createdAt: iso(profile.createdAt),
          updatedAt: iso(profile.updatedAt),
        }
      : null,
    photos,
    session: sessions.map((s) => ({
      device: describeDevice(s.userAgent),
      userAgent: s.userAgent,
      ipAddress: s.ipAddress,
      createdAt: iso(s.createdAt),
      lastUsedAt: iso(s.updatedAt),
      expiresAt: iso(s.expiresAt),
    })),
    account: accounts.map((a) => ({
      signInMethod: a.providerId === 'credential' ? 'email and password' : a.providerId,
      createdAt: iso(a.createdAt),
      updatedAt: iso(a.updatedAt),
    })),
    two_factor: { enabled: Boolean(me.twoFactorEnabled), authenticatorApp: twoFactorRows.some((r) => r.verified !== false) },
    mixer_memberships: memberships.map((m) => ({ ...m, mixerStartsAt: iso(m.mixerStartsAt), joinedAt: iso(m.joinedAt) })),
    mixer_messages: chatSent.map((m) => ({ ...m, createdAt: iso(m.createdAt) })),
    fancies: fanciesGiven.map((f) => ({ ...f, toName: firstNameOf(f.toName), createdAt: iso(f.createdAt) })),
    matches: matchRows.map((m) => ({ ...m, otherName: firstNameOf(m.otherName), createdAt: iso(m.createdAt), endedAt: iso(m.endedAt) })),
    direct_messages: dms.map((d) => ({ ...d, direction: d.senderId === userId ? 'sent' : 'received', createdAt: iso(d.createdAt) })),
    blocks: blocksMade.map((b) => ({ ...b, createdAt: iso(b.createdAt) })),
    // The outcome only: a reporter is never told which penalty the other member got (issue 30).
    reports: reportsMade.map(({ status, ...r }) => ({
      ...r,
      outcome: status === 'open' ? 'being reviewed' : status === 'dismissed' ? 'no action taken' : 'action taken',
      createdAt: iso(r.createdAt),
      resolvedAt: iso(r.resolvedAt),
    })),
    profile_views: { viewsOfYourProfile: Number(viewsOfMe[0]?.n ?? 0), profilesYouViewed: viewsMade },
    interest_suggestions: suggestions.map((s) => ({ ...s, createdAt: iso(s.createdAt) })),
    contact_messages: contacts.map((c) => ({ ...c, createdAt: iso(c.createdAt) })),
    audit_log: audit.map((a) => ({ ...a, details: aboutAnotherMember(a.action) ? null : a.details, createdAt: iso(a.createdAt) })),
    daily_activity: activity.map((a) => a.day),
    mixers: mixersCreated.map((m) => ({ ...m, startsAt: iso(m.startsAt), createdAt: iso(m.createdAt) })),
    campaigns: campaignsCreated.map((c) => ({ ...c, createdAt: iso(c.createdAt) })),
    ...(await formationSections(db, userId)),
    ...(await pushSections(db, userId)),
    ...(await linePrivacyExport(db, userId)),
    ...(await moderationSections(db, userId)),
    ...(await roomSections(db, userId)),
  };
}

/**
 * Issues 29–30's tables: your reactions, where you stopped reading each mixer's chat, your hidden
 * words, your poll votes and the host's nudges to you, and the host settings you changed as an admin.
 */
async function roomSections(db: Deps['database']['db'], userId: string) {
  const [mixerReactions, dmReactions, reads, words, votes, nudges, prompts, hosts] = await Promise.all([
    db
      .select({
        messageId: mixerMessageReactions.messageId,
        emoji: mixerMessageReactions.emoji,
        createdAt: mixerMessageReactions.createdAt,
      })
      .from(mixerMessageReactions)
      .where(eq(mixerMessageReactions.userId, userId))
      .orderBy(asc(mixerMessageReactions.createdAt)),
    db
      .select({
        messageId: directMessageReactions.messageId,
        emoji: directMessageReactions.emoji,
        createdAt: directMessageReactions.createdAt,
      })
      .from(directMessageReactions)
      .where(eq(directMessageReactions.userId, userId))
      .orderBy(asc(directMessageReactions.createdAt)),
    db.select({ mixerId: mixerReads.mixerId, readAt: mixerReads.readAt }).from(mixerReads).where(eq(mixerReads.userId, userId)),
    db
      .select({ word: hiddenWords.word, createdAt: hiddenWords.createdAt })
      .from(hiddenWords)
      .where(eq(hiddenWords.userId, userId))
      .orderBy(asc(hiddenWords.createdAt)),
    db
      .select({ pollId: hostPollVotes.pollId, option: hostPollVotes.option, createdAt: hostPollVotes.createdAt })
      .from(hostPollVotes)
      .where(eq(hostPollVotes.userId, userId)),
    db
      .select({
        mixerId: hostNudges.mixerId,
        prompt: hostNudges.prompt,
        reply: hostNudges.reply,
        state: hostNudges.state,
        createdAt: hostNudges.createdAt,
      })
      .from(hostNudges)
      .where(eq(hostNudges.userId, userId)),
    db
      .select({ topic: hostTopicPrompts.topic, updatedAt: hostTopicPrompts.updatedAt })
      .from(hostTopicPrompts)
      .where(eq(hostTopicPrompts.updatedBy, userId)),
    db.select({ mixerId: mixerHosts.mixerId, enabled: mixerHosts.enabled }).from(mixerHosts).where(eq(mixerHosts.updatedBy, userId)),
  ]);
  const at = <T extends { createdAt: Date }>(rows: T[]) => rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) }));
  return {
    mixer_message_reactions: at(mixerReactions),
    direct_message_reactions: at(dmReactions),
    mixer_reads: reads.map((r) => ({ ...r, readAt: iso(r.readAt) })),
    hidden_words: at(words),
    host_poll_votes: at(votes),
    host_nudges: at(nudges),
    host_topic_prompts: prompts.map((p) => ({ ...p, updatedAt: iso(p.updatedAt) })),
    mixer_hosts: hosts,
  };
}

/**
 * Issue 20's tables: the devices you turned push notifications on for, with their choices (not
 * the push service address or keys: those are the device's secrets), and when each
 * conversation or mixer last pushed to you.
 */
/**
 * Issue 30: the decisions moderators made about you (rule, the quoted line, length, whether
 * reversed — not who decided or their notes) and the appeals you sent.
 */
async function moderationSections(db: Deps['database']['db'], userId: string) {
  const [decisions, mine] = await Promise.all([
    db
      .select({
        id: moderationActions.id,
        action: moderationActions.action,
        rule: moderationActions.rule,
        quote: moderationActions.quote,
        days: moderationActions.days,
        endsAt: moderationActions.endsAt,
        createdAt: moderationActions.createdAt,
        reversedAt: moderationActions.reversedAt,
      })
      .from(moderationActions)
      .where(eq(moderationActions.memberId, userId)),
    db
      .select({
        id: appeals.id,
        actionId: appeals.actionId,
        text: appeals.text,
        status: appeals.status,
        createdAt: appeals.createdAt,
        decidedAt: appeals.decidedAt,
      })
      .from(appeals)
      .where(eq(appeals.memberId, userId)),
  ]);
  const at = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    moderation_actions: decisions.map((d) => ({ ...d, endsAt: at(d.endsAt), createdAt: at(d.createdAt), reversedAt: at(d.reversedAt) })),
    appeals: mine.map((a) => ({ ...a, createdAt: at(a.createdAt), decidedAt: at(a.decidedAt) })),
  };
}

async function pushSections(db: Deps['database']['db'], userId: string) {
  const [devices, recent] = await Promise.all([
    db
      .select({
        device: pushSubscriptions.label,
        categories: pushSubscriptions.categories,
        showNamesAndPreviews: pushSubscriptions.showPreviews,
        quietStart: pushSubscriptions.quietStart,
        quietEnd: pushSubscriptions.quietEnd,
        timeZone: pushSubscriptions.timeZone,
        createdAt: pushSubscriptions.createdAt,
        lastSentAt: pushSubscriptions.lastSentAt,
      })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt)),
    db
      .select({ about: pushCoalesce.key, sentAt: pushCoalesce.sentAt })
      .from(pushCoalesce)
      .where(eq(pushCoalesce.userId, userId))
      .orderBy(asc(pushCoalesce.sentAt)),
  ]);
  return {
    push_subscriptions: devices.map((d) => ({ ...d, createdAt: iso(d.createdAt), lastSentAt: iso(d.lastSentAt) })),
    push_coalesce: recent.map((r) => ({ ...r, sentAt: iso(r.sentAt) })),
    ...(await verificationExportSections(db, userId)),
  };
}

/**
 * Issue 14's tables: your own attendance record (private to you), the invitations the formation
 * job sent you, and the formation settings and topic templates you changed as an admin.
 */
async function formationSections(db: Deps['database']['db'], userId: string) {
  const [attendance, invitations, settingsChanged, templatesChanged] = await Promise.all([
    db
      .select({ mixerId: mixerAttendance.mixerId, outcome: mixerAttendance.outcome, recordedAt: mixerAttendance.recordedAt })
      .from(mixerAttendance)
      .where(eq(mixerAttendance.userId, userId))
      .orderBy(asc(mixerAttendance.recordedAt)),
    db
      .select({
        mixerId: mixerInvitations.mixerId,
        status: mixerInvitations.status,
        createdAt: mixerInvitations.createdAt,
        expiresAt: mixerInvitations.expiresAt,
        respondedAt: mixerInvitations.respondedAt,
      })
      .from(mixerInvitations)
      .where(eq(mixerInvitations.userId, userId))
      .orderBy(asc(mixerInvitations.createdAt)),
    db.select({ updatedAt: formationSettings.updatedAt }).from(formationSettings).where(eq(formationSettings.updatedBy, userId)),
    db
      .select({ topic: topicTemplates.topic, updatedAt: topicTemplates.updatedAt })
      .from(topicTemplates)
      .where(eq(topicTemplates.updatedBy, userId)),
  ]);
  return {
    mixer_attendance: attendance.map((a) => ({ ...a, recordedAt: iso(a.recordedAt) })),
    mixer_invitations: invitations.map((i) => ({
      ...i,
      createdAt: iso(i.createdAt),
      expiresAt: iso(i.expiresAt),
      respondedAt: iso(i.respondedAt),
    })),
    formation_settings: settingsChanged.map((f) => ({ updatedAt: iso(f.updatedAt) })),
    topic_templates: templatesChanged.map((t) => ({ ...t, updatedAt: iso(t.updatedAt) })),
  };
}
