/** Where React Router's `<ScrollRestoration />` keeps its positions (one entry per history key). */
const POSITIONS = 'react-router-scroll-positions';

/**
 * A page reached anew opens at its top. React Router keeps scroll positions by history entry, and
 * the first entry of every document has the same key ("default"): leaving a scrolled page with a
 * full load (the end of onboarding, a link tapped before the app took a page over) kept its
 * position under that key, and the next page opened that far down. A reload or back/forward keeps
 * its place as before. Runs before the router starts.
 */
export function forgetInheritedScroll(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  navigationType = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type,
): void {
  if (navigationType !== 'navigate') return;
  try {
    const saved = storage.getItem(POSITIONS);
    if (!saved) return;
    const positions = JSON.parse(saved) as Record<string, number>;
    if (!('default' in positions)) return;
    delete positions.default;
    storage.setItem(POSITIONS, JSON.stringify(positions));
  } catch {
    // No session storage (a private window's quota, a blocked cookie setting): nothing was kept.
  }
}
