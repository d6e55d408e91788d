import { Outlet } from 'react-router';
import { QueryProvider } from '../lib/query';

/** TanStack Query for the routes that fetch with it, loaded with them: not part of `/` and `/auth/*` (DESIGN §7). */
export default function QueryLayout() {
  return (
    <QueryProvider>
      <Outlet />
    </QueryProvider>
  );
}
