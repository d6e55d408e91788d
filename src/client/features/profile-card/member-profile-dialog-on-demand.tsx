import { lazy, Suspense, useEffect, useState } from 'react';
import type { MemberRef } from './member-profile-dialog';

const load = () => import('./member-profile-dialog');
const Dialog = lazy(() => load().then((m) => ({ default: m.MemberProfileDialog })));

/**
 * The member card's dialog, not in any page's first load (issue 33): a page that can open it asks
 * for its code once the page is up, and it mounts with its first opening (then stays, so it can
 * close as it should).
 */
export function MemberProfileDialog(props: { member: MemberRef | null; onOpenChange: (open: boolean) => void }) {
  const [opened, setOpened] = useState(false);
  if (props.member && !opened) setOpened(true);
  useEffect(() => {
    void load();
  }, []);
  if (!opened) return null;
  return (
    <Suspense>
      <Dialog {...props} />
    </Suspense>
  );
}
