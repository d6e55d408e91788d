import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { setRenderedAt } from '../lib/clock';

export function RootLayout() {
  // A server-rendered page is inert, and told as of the instant it was rendered, until the app
  // has hydrated it (main.tsx, lib/clock, decision 028).
  useEffect(() => {
    setRenderedAt(undefined);
    document.getElementById('root')?.removeAttribute('inert');
  }, []);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
