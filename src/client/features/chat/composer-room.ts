import { useEffect } from 'react';

let mounted = 0;

/**
 * While a chat composer is on screen, toasts move to the top (issue 29: the join toast covered
 * the composer for 5 s right when a new member wanted to type). The toast viewport reads
 * `body[data-composer]`; counted, so two composers (mixer and a dialog) do not fight.
 */
export function useComposerOnScreen() {
  useEffect(() => {
    mounted++;
    document.body.dataset.composer = '';
    return () => {
      mounted--;
      if (mounted === 0) delete document.body.dataset.composer;
    };
  }, []);
}
