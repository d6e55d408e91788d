import { queryOptions } from '@tanstack/react-query';
import type { DashboardCounters } from '../../shared/stats';
import { api } from './api';

/** GET /api/stats, one cache entry for Home's counters and the navigation's badges. */
export const statsQuery = queryOptions({ queryKey: ['stats'], queryFn: () => api<DashboardCounters>('/api/stats') });
