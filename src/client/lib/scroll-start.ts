/** Where React Router's `<ScrollRestoration />` keeps its positions (one entry per history key). */
const POSITIONS = 'react-router-scroll-positions';

/**
 * A page reached anew opens at its top. React Router keeps scroll positions by history entry and
 * restores the one kept for the entry a page loads in. A fresh load can land in an entry that
 * already has one: every document's first entry has the key "default", and loading the same
 * address again (the end of onboarding, shown at /home, loads /home) keeps the entry's state and
 * so its key. The member then landed as far down as the page they left. A reload or back/forward
 * keeps its place as before. Runs before the router starts.
 */
export function forgetInheritedScroll(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  navigationType = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type,
  entryKey = (history.state as { key?: string } | null)?.key ?? 'default',
): void {
  if (navigationType !== 'navigate') return;
  try {
    const saved = storage.getItem(POSITIONS);
    if (!saved) return;
    const positions = JSON.parse(saved) as Record<string, number>;
    if (!(entryKey in positions)) return;
    delete positions[entryKey];
    storage.setItem(POSITIONS, JSON.stringify(positions));
  } catch {
    // No session storage (a private window's quota, a blocked cookie setting): nothing was kept.
  }
}
