import { useEffect, useRef, useState } from 'react';

export interface AnnouncedLine {
  id: string;
  /** "Maya", "You", or empty for the host's lines. */
  who: string;
  text: string;
}

/**
 * Screen readers hear each new line once, politely (issue 29): only lines that arrive after
 * the chat opened — not the history, not older pages, not typing. One visually hidden region
 * per chat; the list itself is not a live region, so nothing is read twice.
 */
export function ChatAnnouncer({
  lines,
  ready,
}: {
  lines: AnnouncedLine[] /** The history has loaded (what it holds is not news). */;
  ready: boolean;
}) {
  const seen = useRef<Set<string> | null>(null);
  const [said, setSaid] = useState<AnnouncedLine[]>([]);

  useEffect(() => {
    if (seen.current === null) {
      if (!ready) return;
      // What was there when the chat opened is history, not news.
      seen.current = new Set(lines.map((l) => l.id));
      return;
    }
    const known = seen.current;
    const fresh = lines.filter((l) => !known.has(l.id));
    if (!fresh.length) return;
    for (const l of fresh) known.add(l.id);
    // The last few only: a burst after a reconnect is not read out line by line.
    setSaid((prev) => [...prev, ...fresh].slice(-3));
  }, [lines, ready]);

  return (
    <div className="sr-only" role="status" aria-live="polite" aria-atomic="false" data-testid="chat-announcer">
      {said.map((l) => (
        <p key={l.id}>{l.who ? `${l.who}: ${l.text}` : l.text}</p>
      ))}
    </div>
  );
}
