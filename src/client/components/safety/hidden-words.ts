import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { hiddenWordMatcher } from '../../../shared/safety/hidden-words';
import { api } from '../../lib/api';

/** The member's hidden words (issue 30), fetched once and shared by every chat and the settings page. */
export const hiddenWordsKey = ['settings', 'hidden-words'] as const;

export function useHiddenWords() {
  return useQuery({
    queryKey: hiddenWordsKey,
    queryFn: () => api<{ words: string[] }>('/api/settings/hidden-words'),
    staleTime: 5 * 60_000,
  });
}

/** A test for "this line contains one of my hidden words" (never true while the list loads). */
export function useHiddenWordMatcher(): (line: string) => boolean {
  const words = useHiddenWords().data?.words;
  return useMemo(() => hiddenWordMatcher(words ?? []), [words]);
}
