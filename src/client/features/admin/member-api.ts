import type { AdminMemberDetail, AdminMemberSearch } from '../../../shared/schemas/admin-members';
import { api } from '../../lib/api';

/** The admin member pages' queries (issue 32); keys start with 'admin' like the rest of the area. */
export const memberKeys = {
  search: (q: string) => ['admin', 'members', 'search', q] as const,
  detail: (id: string) => ['admin', 'members', 'detail', id] as const,
};

export const memberApi = {
  search: (q: string) => api<AdminMemberSearch>(`/api/admin/members?q=${encodeURIComponent(q)}&limit=20`),
  detail: (id: string) => api<AdminMemberDetail>(`/api/admin/members/${encodeURIComponent(id)}`),
};
