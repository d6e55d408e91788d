import { ToastProvider } from '../components/ui/toast';
import { AuthProvider } from '../features/auth/auth-context';
import { QueryProvider } from '../lib/query';

export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <QueryProvider>
      <ToastProvider>
        <AuthProvider>{children}</AuthProvider>
      </ToastProvider>
    </QueryProvider>
  );
}
