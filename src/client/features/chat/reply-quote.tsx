import { Pencil, Reply, X } from 'lucide-react';
import { LINE_MESSAGES, type ReplyQuote as Quote } from '../../../shared/chat-lines';
import { cn } from '../../lib/cn';

/**
 * The quote a reply carries, above its text. Tapping it scrolls to the original and highlights
 * it. An unsent or hidden original shows only "Original message unavailable" (none of its text);
 * one the reader sees folded (`folded`: `quoteFolded`) shows its author and "Hidden message", and
 * still leads to the original, folded there with its own way to show it.
 */
export function ReplyQuote({
  quote,
  onJump,
  own,
  folded,
}: {
  quote: Quote;
  onJump?: (id: string) => void;
  own?: boolean;
  folded?: boolean;
}) {
  const available = quote.body !== null;
  const content = available ? (
    <>
      <span className="block text-xs font-semibold">{quote.senderName}</span>
      {folded ? (
        <span className="text-xs italic">{LINE_MESSAGES.quoteFolded}</span>
      ) : (
        <span className="line-clamp-2 text-xs">{quote.body}</span>
      )}
    </>
  ) : (
    <span className="text-xs italic">{LINE_MESSAGES.unavailable}</span>
  );
  const classes = cn(
    'mb-1 block w-full rounded-xl border-l-4 px-2.5 py-1.5 text-left',
    own ? 'border-primary-foreground/70 bg-primary-foreground/15' : 'border-primary/60 bg-foreground/5',
  );
  if (!available || !onJump) return <span className={classes}>{content}</span>;
  return (
    <button
      type="button"
      className={cn(classes, 'hover:opacity-90')}
      // Starts with what it shows (the name, then the quote), then what a press does (WCAG 2.5.3).
      aria-label={`${quote.senderName}: ${folded ? LINE_MESSAGES.quoteFolded : quote.body}. Show the original message`}
      onClick={(e) => {
        e.stopPropagation();
        onJump(quote.id);
      }}
    >
      {content}
    </button>
  );
}

/** Above the composer while replying to or editing a line: what, and a way out. */
export function ComposerBanner({
  mode,
  name,
  body,
  onCancel,
}: {
  mode: 'reply' | 'edit';
  name?: string;
  body: string;
  onCancel: () => void;
}) {
  const Icon = mode === 'reply' ? Reply : Pencil;
  return (
    <div className="mb-2 flex items-center gap-2 rounded-xl border-l-4 border-primary bg-muted px-3 py-1.5 text-sm" data-composer-banner>
      <Icon className="size-4 shrink-0 text-primary" aria-hidden />
      <p className="min-w-0 flex-1">
        <span className="block text-xs font-semibold">{mode === 'reply' ? `Replying to ${name}` : 'Editing message'}</span>
        <span className="block truncate text-xs text-muted-foreground">{body}</span>
      </p>
      <button
        type="button"
        onClick={onCancel}
        aria-label={mode === 'reply' ? 'Cancel reply' : 'Cancel editing'}
        className="rounded-full p-1.5 text-muted-foreground hover:bg-background hover:text-foreground"
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  );
}
