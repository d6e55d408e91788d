import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';

export function RootLayout() {
  // A server-rendered page is inert until the app has hydrated it (main.tsx, decision 026).
  useEffect(() => document.getElementById('root')?.removeAttribute('inert'), []);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
