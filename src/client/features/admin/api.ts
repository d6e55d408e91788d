import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminMixer,
  AdminMixerView,
  AdminOverview,
  AdminReport,
  ApproveResult,
  ApproveSuggestionInput,
  AuditEntry,
  CampaignInput,
  CampaignsOverview,
  Metrics,
  MetricsSplit,
  MixerInput,
  Page,
  RejectSuggestionInput,
  SuggestionsOverview,
  SuspendedMember,
} from '../../../shared/schemas/admin';
import type { Audience, AudiencePreview } from '../../../shared/audience';
import { api } from '../../lib/api';
import type { AdminAppeal, ModerationActInput, QueueGroup } from '../../../shared/schemas/moderation';

/** Every admin query key starts with 'admin', so an action can refresh the whole area at once. */
export const adminKeys = {
  all: ['admin'] as const,
  overview: ['admin', 'overview'] as const,
  audit: ['admin', 'audit'] as const,
  suggestions: ['admin', 'suggestions'] as const,
  metrics: (from: string, to: string, split: MetricsSplit) => ['admin', 'metrics', from, to, split] as const,
  mixers: (view: AdminMixerView) => ['admin', 'mixers', view] as const,
  campaigns: ['admin', 'campaigns'] as const,
  reports: (status: 'open' | 'resolved') => ['admin', 'reports', status] as const,
  suspended: ['admin', 'suspended'] as const,
  queue: ['admin', 'moderation', 'queue'] as const,
  appeals: ['admin', 'moderation', 'appeals'] as const,
};

const withCursor = (path: string, cursor: string | null | undefined) =>
  cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}` : path;

export const adminApi = {
  overview: () => api<AdminOverview>('/api/admin/overview'),
  audit: (cursor?: string | null) => api<Page<AuditEntry>>(withCursor('/api/admin/audit?limit=20', cursor)),
  suggestions: () => api<SuggestionsOverview>('/api/admin/interest-suggestions'),
  approve: (body: ApproveSuggestionInput) => api<ApproveResult>('/api/admin/interest-suggestions/approve', { body }),
  reject: (body: RejectSuggestionInput) => api<{ rejected: number }>('/api/admin/interest-suggestions/reject', { body }),
  metrics: (from: string, to: string, split: MetricsSplit) => api<Metrics>(`/api/admin/metrics?from=${from}&to=${to}&split=${split}`),
  mixers: (view: AdminMixerView, cursor?: string | null) =>
    api<Page<AdminMixer>>(withCursor(`/api/admin/mixers?view=${view}&limit=25`, cursor)),
  createMixer: (body: MixerInput) => api<AdminMixer>('/api/admin/mixers', { body }),
  updateMixer: (id: string, body: MixerInput) => api<AdminMixer>(`/api/admin/mixers/${id}`, { method: 'PUT', body }),
  cancelMixer: (id: string, reason: string) => api<AdminMixer>(`/api/admin/mixers/${id}/cancel`, { body: { reason } }),
  campaigns: () => api<CampaignsOverview>('/api/admin/campaigns'),
  createCampaign: (body: CampaignInput) => api<{ id: string }>('/api/admin/campaigns', { body }),
  reports: (status: 'open' | 'resolved', cursor?: string | null) =>
    api<Page<AdminReport>>(withCursor(`/api/admin/reports?status=${status}&limit=20`, cursor)),
  suspended: () => api<{ members: SuspendedMember[] }>('/api/admin/members/suspended'),
  queue: () => api<{ groups: QueueGroup[] }>('/api/admin/moderation/queue'),
  act: (id: string, body: ModerationActInput) => api<{ status: string; actionId: string }>(`/api/admin/reports/${id}/act`, { body }),
  appeals: () => api<{ appeals: AdminAppeal[] }>('/api/admin/appeals'),
  decideAppeal: (id: string, body: { decision: 'uphold' | 'reverse'; note: string }) =>
    api<{ status: 'upheld' | 'reversed' }>(`/api/admin/appeals/${id}/decide`, { body }),
  liftSuspension: (actionId: string, reason: string) =>
    api<{ status: 'lifted'; suspendedUntil: string | null }>(`/api/admin/suspensions/${actionId}/lift`, { body: { reason } }),
  audiencePreview: (body: Audience) => api<AudiencePreview>('/api/admin/mixers/audience-preview', { body }),
  interests: () => api<{ interests: { id: number; name: string; category: string }[] }>('/api/catalog/interests'),
};

/** A mutation that refreshes the admin area (and anything else named) when it succeeds. */
export function useAdminMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>, alsoInvalidate: QueryKey[] = []) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all([
        qc.invalidateQueries({ queryKey: adminKeys.all }),
        ...alsoInvalidate.map((queryKey) => qc.invalidateQueries({ queryKey })),
      ]);
    },
  });
}

export type { AdminMixer, AdminReport };
