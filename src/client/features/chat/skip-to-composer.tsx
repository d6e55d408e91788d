/**
 * The first stop inside a chat for a keyboard: every line of the log is focusable (its actions open
 * from it), so Tab alone would walk through the whole history before the message box. Shown only
 * while focused, like the page's "Skip to content"; its container must be positioned.
 */
export function SkipToComposer({ composerId }: { composerId: string }) {
  return (
    <button
      type="button"
      onClick={() => document.getElementById(composerId)?.focus()}
      className="sr-only rounded-lg bg-card text-sm font-medium shadow-md focus:not-sr-only focus:absolute focus:left-3 focus:top-3 focus:z-20 focus:px-3 focus:py-2"
    >
      Skip to the message box
    </button>
  );
}
