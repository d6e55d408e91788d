import { CAMPAIGN_PARAMS } from '../../../shared/schemas/auth';

export type CampaignParam = (typeof CAMPAIGN_PARAMS)[number];
export type CampaignValues = Partial<Record<CampaignParam, string>>;

/** Human names for the campaign parameters (QR page form and summary). */
export const CAMPAIGN_PARAM_LABELS: Record<CampaignParam, string> = {
  utm_source: 'Source',
  utm_medium: 'Medium',
  utm_campaign: 'Campaign',
  code: 'Code',
  label: 'Label',
};

const MAX_LENGTH = 100;

/** The campaign parameters of a query string, trimmed, in a fixed order; empty ones left out. */
export function pickCampaign(params: URLSearchParams): CampaignValues {
  const out: CampaignValues = {};
  for (const key of CAMPAIGN_PARAMS) {
    const value = (params.get(key) ?? '').trim().slice(0, MAX_LENGTH);
    if (value) out[key] = value;
  }
  return out;
}

/** "utm_source=x&code=y" (no leading "?"), or "" when there is nothing to carry. */
export function campaignQuery(values: CampaignValues): string {
  const q = new URLSearchParams();
  for (const key of CAMPAIGN_PARAMS) {
    const value = values[key]?.trim();
    if (value) q.set(key, value.slice(0, MAX_LENGTH));
  }
  return q.toString();
}

/** A path with the campaign query appended when there is one. */
export function withCampaign(path: string, values: CampaignValues): string {
  const q = campaignQuery(values);
  return q ? `${path}?${q}` : path;
}

/** The link a campaign's QR code points at: `${origin}/campaign?…`. */
export function campaignLink(origin: string, values: CampaignValues): string {
  return `${origin.replace(/\/$/, '')}${withCampaign('/campaign', values)}`;
}
