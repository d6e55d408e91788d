import { lazy, Suspense, useState } from 'react';
import type { MemberRef } from './member-profile-dialog';

const Dialog = lazy(() => import('./member-profile-dialog').then((m) => ({ default: m.MemberProfileDialog })));

/**
 * The member card's dialog, not in any page's first load (issue 33): its code loads with its
 * first opening, and it stays mounted from then on, so it can close as it should. (Asked for as
 * soon as the page was up, its evaluation landed among the busy room's first tasks.)
 */
export function MemberProfileDialog(props: { member: MemberRef | null; onOpenChange: (open: boolean) => void }) {
  const [opened, setOpened] = useState(false);
  if (props.member && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense>
      <Dialog {...props} />
    </Suspense>
  );
}
