import { useCallback, useLayoutEffect, useRef } from 'react';

const inMenu = (el: Element) => Boolean(el.closest('[role="menu"]'));

/**
 * The last element focused outside a menu. A dialog chosen from a Radix menu (⋯ → "Report")
 * opens while the menu closes: by then the item is gone and focus is on <body>, and the
 * control the member used is the menu's trigger — the last thing focused before the menu.
 */
let lastOutsideMenu: HTMLElement | null = null;
// From the moment a dialog's code loads (dialogs mount only as they open: too late to start then).
if (typeof document !== 'undefined') {
  document.addEventListener(
    'focusin',
    (e) => {
      if (e.target instanceof HTMLElement && !inMenu(e.target)) lastOutsideMenu = e.target;
    },
    true,
  );
}

/** The control that opened whatever is opening now. */
function opener(): HTMLElement | null {
  const active = document.activeElement;
  if (active instanceof HTMLElement && active !== document.body && !inMenu(active)) return active;
  return lastOutsideMenu?.isConnected ? lastOutsideMenu : null;
}

/**
 * Focus goes back to the control that opened a dialog when it closes (WCAG 2.4.3), for every
 * dialog in the app. Radix gives focus back only to its own `Dialog.Trigger`; our dialogs are
 * mostly opened from ordinary buttons, menu items and list rows, so this hook remembers the
 * opener as the dialog opens and restores it on close. Pass the dialog's `open` and spread the
 * result on `Dialog.Content` / `AlertDialog.Content`:
 *
 *   const returnFocus = useReturnFocus(open);
 *   <Dialog.Content {...returnFocus}>
 *
 * A dialog that has a Trigger works the same (the trigger is the opener). If the opener has
 * left the page by then (the row was removed), Radix's own default applies.
 */
export function useReturnFocus(open: boolean): { onCloseAutoFocus: (event: Event) => void } {
  const returnTo = useRef<HTMLElement | null>(null);
  // A layout effect runs before Radix moves focus into the dialog (its focus scope does so in an effect).
  useLayoutEffect(() => {
    if (open) returnTo.current = opener();
  }, [open]);
  const onCloseAutoFocus = useCallback((event: Event) => {
    const el = returnTo.current;
    returnTo.current = null;
    if (!el?.isConnected) return;
    event.preventDefault();
    el.focus();
  }, []);
  return { onCloseAutoFocus };
}
