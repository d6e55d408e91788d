import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { isOnboardingDeferred, OnboardingWizard } from '../onboarding';
import { knownSession, type SessionResponse, useAuth } from '../../lib/auth';
import { AuthLayoutFrame } from './components/auth-frame';
import { VerificationNotice } from './components/verification-notice';

/**
 * Which gate of spec §2 stands before a member's pages for this session, in order: sign in,
 * confirm the address, onboarding (unless put off for later); null when the pages are open.
 */
export function gateFor({ user, profile }: SessionResponse): 'login' | 'verify' | 'onboarding' | null {
  if (!user) return 'login';
  if (!user.emailVerified) return 'verify';
  const completed = Boolean(profile?.onboardingCompleted || user.onboardingComplete);
  if (profile && !completed && !isOnboardingDeferred()) return 'onboarding';
  return null;
}

/**
 * Whether a member page's loader may read its data now: not while the session the app knows is
 * held at a gate (its reads would only be refused, 401 or 403, while the gate shows instead), and
 * not an admin page's for anyone but an admin. Unknown yet: the reads go ahead, as before.
 */
export function mayLoadMemberData(admin: boolean): boolean {
  const session = knownSession();
  if (!session) return true;
  return gateFor(session) === null && (!admin || session.user?.role === 'admin');
}

/** Gate order for protected routes (spec §2): spinner → login → verification → onboarding → page. */
export function ProtectedRoute() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.isLoading && !auth.user) return <FullPageSpinner />;
  const gate = gateFor(auth);
  if (gate === 'login') {
    if (auth.exitTo) return <Navigate to={auth.exitTo} replace />;
    const from = location.pathname + location.search;
    return <Navigate to={`/auth/login?next=${encodeURIComponent(from)}`} replace state={{ from }} />;
  }
  if (gate === 'verify' && auth.user) {
    return (
      <AuthLayoutFrame>
        <VerificationNotice email={auth.user.email} onLogout={() => void auth.logout().catch(() => {})} />
      </AuthLayoutFrame>
    );
  }
  if (gate === 'onboarding') return <OnboardingWizard />;
  return <Outlet />;
}

/** Admin pages: loader while the role loads, non-admins to /home (spec §2, §4). */
export function AdminRoute() {
  const auth = useAuth();
  if (auth.isLoading) return <FullPageSpinner />;
  if (auth.user?.role !== 'admin') return <Navigate to="/home" replace />;
  return <Outlet />;
}
