/**
 * A polite live region for new lines from others (issue 29): the chat log itself is not live,
 * so typing indicators, reactions and edits stay quiet; only what this announces is read out.
 */
export function LiveAnnouncer({ text }: { text: string }) {
  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-chat-announcer>
      {text}
    </div>
  );
}
