import { ToastProvider } from '../components/ui/toast';
import { AuthProvider } from '../lib/auth';

/** App-wide context. TanStack Query is provided by app/query-layout on the routes that use it. */
export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <ToastProvider>
      <AuthProvider>{children}</AuthProvider>
    </ToastProvider>
  );
}
