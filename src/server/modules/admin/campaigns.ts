import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, type AdminCampaign, type CampaignsOverview, type campaignInputSchema } from '../../../shared/schemas/admin';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { recordAudit } from './audit';
import { iso, type Queryable, query } from '../../lib/sql';

const LIST_LIMIT = 200;

interface CampaignRow {
  id: string;
  label: string;
  code: string;
  source: string;
  medium: string;
  campaign: string;
  created_at: string;
  created_by: string | null;
  signups: number;
  verified: number;
  completed: number;
}

const completedSql = sql`(u.onboarding_complete or coalesce(p.onboarding_completed, false))`;

/**
 * Campaigns with their sign-ups (members whose campaign code matches, case-insensitively) and
 * completed onboardings; plus attributed sign-ups that match no campaign created here.
 */
export async function listCampaigns(db: Queryable): Promise<CampaignsOverview> {
  const campaigns = await query<CampaignRow>(
    db,
    sql`with stats as (
          select lower(btrim(u.campaign_code)) as code, count(*)::int as signups,
                 count(*) filter (where u.email_verified)::int as verified,
                 count(*) filter (where ${completedSql})::int as completed
            from "user" u left join profiles p on p.id = u.id
           where coalesce(btrim(u.campaign_code), '') <> ''
           group by 1
        )
        select c.id, c.label, c.code, c.source, c.medium, c.campaign, ${iso(sql`c.created_at`)} as created_at,
               a.name as created_by, coalesce(s.signups, 0) as signups, coalesce(s.verified, 0) as verified, coalesce(s.completed, 0) as completed
          from campaigns c
          left join stats s on s.code = lower(c.code)
          left join "user" a on a.id = c.created_by
         order by c.created_at desc
         limit ${LIST_LIMIT}`,
  );
  const untracked = await query<{ source: string; campaign: string; code: string; signups: number; completed: number }>(
    db,
    sql`select coalesce(btrim(u.utm_source), '') as source, coalesce(btrim(u.utm_campaign), '') as campaign,
               coalesce(btrim(u.campaign_code), '') as code, count(*)::int as signups,
               count(*) filter (where ${completedSql})::int as completed
          from "user" u left join profiles p on p.id = u.id
         where (coalesce(btrim(u.utm_source), '') <> '' or coalesce(btrim(u.utm_campaign), '') <> '' or coalesce(btrim(u.campaign_code), '') <> '')
           and not exists (select 1 from campaigns c where lower(c.code) = lower(btrim(u.campaign_code)))
         group by 1, 2, 3
         order by count(*) desc
         limit ${LIST_LIMIT}`,
  );
  return {
    campaigns: campaigns.map(
      (c): AdminCampaign => ({
        id: c.id,
        label: c.label,
        code: c.code,
        source: c.source,
        medium: c.medium,
        campaign: c.campaign,
        createdAt: c.created_at,
        createdBy: c.created_by,
        signups: c.signups,
        verified: c.verified,
        completed: c.completed,
      }),
    ),
    untracked,
  };
}

/** Creates a campaign; codes are unique case-insensitively. */
export async function createCampaign(db: Db, actorId: string, input: z.output<typeof campaignInputSchema>): Promise<{ id: string }> {
  return db.transaction(async (tx) => {
    const [row] = await query<{ id: string }>(
      tx,
      sql`insert into campaigns (label, code, source, medium, campaign, created_by)
          select ${input.label}, ${input.code}, ${input.source}, ${input.medium}, ${input.campaign}, ${actorId}
           where not exists (select 1 from campaigns where lower(code) = lower(${input.code}))
          on conflict (code) do nothing
          returning id`,
    );
    if (!row) throw new AppError('conflict', ADMIN_MESSAGES.codeTaken, { code: ADMIN_MESSAGES.codeTaken });
    await recordAudit(tx, actorId, 'campaign.create', row.id, { label: input.label, code: input.code });
    return row;
  });
}
