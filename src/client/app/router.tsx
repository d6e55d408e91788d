import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { AuthLayout } from '../features/auth/components/auth-layout';
import { ForgotPasswordPage } from '../features/auth/pages/forgot-password-page';
import { LoginPage } from '../features/auth/pages/login-page';
import { RegisterPage } from '../features/auth/pages/register-page';
import { ResetPasswordPage } from '../features/auth/pages/reset-password-page';
import { AdminRoute, ProtectedRoute } from '../features/auth/protected-route';
import { ErrorScreen } from '../pages/error-screen';
import { NotFoundPage } from '../pages/not-found-page';
import { RootLayout } from './root-layout';

/** /beta and /beta-landing go to registration, keeping campaign parameters. */
function RedirectKeepingQuery({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** The spec's route table (§2). Member pages live inside the shell; heavy pages load on demand. */
export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <ErrorScreen />,
    children: [
      { path: '/', lazy: page(() => import('../pages/landing-page')) },
      { path: '/beta', element: <RedirectKeepingQuery to="/auth/register" /> },
      { path: '/beta-landing', element: <RedirectKeepingQuery to="/auth/register" /> },
      {
        path: '/auth',
        element: <AuthLayout />,
        children: [
          { index: true, element: <Navigate to="/auth/login" replace /> },
          { path: 'login', element: <LoginPage /> },
          { path: 'register', element: <RegisterPage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            lazy: page(() => import('../features/shell/app-shell')),
            children: [
              { path: '/home', lazy: page(() => import('../features/home/home-page')) },
              {
                element: <AdminRoute />,
                children: [],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
