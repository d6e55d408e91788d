import { useEffect, useLayoutEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { setRenderedAt } from '../lib/clock';

/** Set by public/early-taps.js: hands the app the taps, submits and typing it held (decision 038). */
const early = globalThis as { __fancyTakeOver?: () => void };

/**
 * Where the member has scrolled a server-rendered page by the time the app takes it over. React
 * Router's `<ScrollRestoration />` scrolls a location it keeps no position for to the top as it
 * mounts: the page jumped under a finger about to tap (which then landed on something else) and
 * the member lost their place. Noted just before it and put back just after it, in the same commit:
 * nothing paints and no tap lands in between (decision 038).
 */
let placeAtTakeOver: number | null = null;
function NotePlace() {
  useLayoutEffect(() => {
    if (document.getElementById('root')?.hasAttribute('data-waiting-for-app')) placeAtTakeOver = window.scrollY;
  }, []);
  return null;
}
function KeepPlace() {
  useLayoutEffect(() => {
    if (placeAtTakeOver === null) return;
    if (window.scrollY !== placeAtTakeOver) window.scrollTo(0, placeAtTakeOver);
    placeAtTakeOver = null;
  }, []);
  return null;
}

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
      <NotePlace />
      <ScrollRestoration />
      <KeepPlace />
    </>
  );
}
