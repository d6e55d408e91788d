import { MessagesSquare } from 'lucide-react';

/** Desktop: the right-hand pane before a conversation is chosen. */
export default function MessagesIndexPage() {
  return (
    <div className="hidden flex-1 flex-col items-center justify-center p-10 text-center lg:flex">
      <span className="flex size-20 items-center justify-center rounded-3xl bg-secondary text-secondary-foreground">
        <MessagesSquare className="size-10" aria-hidden />
      </span>
      <h2 className="mt-5 font-display text-2xl font-bold">Your conversations</h2>
      <p className="mt-2 max-w-sm text-muted-foreground">Pick a chat on the left to carry on where you left off.</p>
    </div>
  );
}
