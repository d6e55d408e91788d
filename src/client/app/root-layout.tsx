import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { setRenderedAt } from '../lib/clock';

/** Set by public/early-taps.js: hands the app the taps, submits and typing it held (decision 038). */
const early = globalThis as { __fancyTakeOver?: () => void };

export function RootLayout() {
  // A server-rendered page is told as of the instant it was rendered until the app has hydrated
  // it (main.tsx, lib/clock, decision 028); taps made before then reach the app now (decision 038).
  useEffect(() => {
    setRenderedAt(undefined);
    early.__fancyTakeOver?.();
    performance.mark?.('fancy:taken-over');
  }, []);
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
