import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../../components/ui/spinner';
import { isOnboardingDeferred, OnboardingWizard } from '../onboarding';
import { useAuth } from '../../lib/auth';
import { AuthLayoutFrame } from './components/auth-frame';
import { VerificationNotice } from './components/verification-notice';

/** Gate order for protected routes (spec §2): spinner → login → verification → onboarding → page. */
export function ProtectedRoute() {
  const auth = useAuth();
  const location = useLocation();
  if (auth.isLoading && !auth.user) return <FullPageSpinner />;
  if (!auth.user) {
    if (auth.exitTo) return <Navigate to={auth.exitTo} replace />;
    const from = location.pathname + location.search;
    return <Navigate to={`/auth/login?next=${encodeURIComponent(from)}`} replace state={{ from }} />;
  }
  if (!auth.user.emailVerified) {
    return (
      <AuthLayoutFrame>
        <VerificationNotice email={auth.user.email} onLogout={() => void auth.logout().catch(() => {})} />
      </AuthLayoutFrame>
    );
  }
  const completed = Boolean(auth.profile?.onboardingCompleted || auth.user.onboardingComplete);
  if (auth.profile && !completed && !isOnboardingDeferred()) return <OnboardingWizard />;
  return <Outlet />;
}

/** Admin pages: loader while the role loads, non-admins to /home (spec §2, §4). */
export function AdminRoute() {
  const auth = useAuth();
  if (auth.isLoading) return <FullPageSpinner />;
  if (auth.user?.role !== 'admin') return <Navigate to="/home" replace />;
  return <Outlet />;
}
