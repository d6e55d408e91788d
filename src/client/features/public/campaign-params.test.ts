import { describe, expect, it } from 'vitest';
import { campaignFromParams } from '../../../shared/schemas/auth';
import { campaignLink, campaignQuery, pickCampaign, withCampaign } from './campaign-params';

describe('campaign parameters', () => {
  it('keeps only the five campaign parameters, trimmed, without empty ones', () => {
    const params = new URLSearchParams('utm_source=poster&utm_medium=&utm_campaign=%20launch%20&code=LDN1&label=Freshers+fair&other=x');
    expect(pickCampaign(params)).toEqual({ utm_source: 'poster', utm_campaign: 'launch', code: 'LDN1', label: 'Freshers fair' });
  });

  it('builds the query in a fixed order and the campaign link', () => {
    const values = { label: 'Café & co', code: 'A1', utm_source: 'qr' };
    expect(campaignQuery(values)).toBe('utm_source=qr&code=A1&label=Caf%C3%A9+%26+co');
    expect(campaignLink('https://fancy.example/', values)).toBe(
      'https://fancy.example/campaign?utm_source=qr&code=A1&label=Caf%C3%A9+%26+co',
    );
    expect(campaignLink('https://fancy.example', {})).toBe('https://fancy.example/campaign');
    expect(withCampaign('/auth/register', {})).toBe('/auth/register');
  });

  it('what it carries is what the register page reads', () => {
    const link = withCampaign('/auth/register', pickCampaign(new URLSearchParams('utm_source=flyer&code=XY&label=Leeds')));
    const read = campaignFromParams(new URL(link, 'https://x.example').searchParams);
    expect(read).toEqual({ utm_source: 'flyer', utm_medium: '', utm_campaign: '', campaign_code: 'XY', campaign_label: 'Leeds' });
  });
});
