import { useLocation, useSearchParams } from 'react-router';

/** Where to go after sign-in: the protected page first asked for, never another site. */
export function useNextPath(): string {
  const [params] = useSearchParams();
  const location = useLocation();
  const fromState = (location.state as { from?: string } | null)?.from;
  const next = params.get('next') ?? fromState ?? '/home';
  return next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/auth') ? next : '/home';
}
