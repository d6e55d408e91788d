import { SendHorizontal } from 'lucide-react';
import { forwardRef, useImperativeHandle, useRef } from 'react';
import { LINE_MESSAGES } from '../../../../shared/chat-lines';
import { DM_MAX_LENGTH, DM_MESSAGES } from '../../../../shared/messages-texts';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useGrowingTextarea } from '../../../components/ui/use-growing-textarea';
import { ComposerBanner, useComposerOnScreen, useKeyboardSafe } from '../../chat';

const COUNTER_FROM = DM_MAX_LENGTH - 200;

/**
 * The sticky composer: grows with its text, Enter sends, Shift+Enter adds a line; the
 * 2000-character limit shows as it gets close.
 */
export const Composer = forwardRef<
  { focus(): void },
  {
    value: string;
    onChange: (v: string) => void;
    onSend: () => void;
    name: string;
    disabled?: boolean;
    /** Replying to or editing a message: shown above the box, Escape or ✕ leaves it. */
    banner?: { mode: 'reply' | 'edit'; name?: string; body: string };
    onCancelBanner?: () => void;
  }
>(function Composer({ value, onChange, onSend, name, disabled, banner, onCancelBanner }, ref) {
  const area = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);
  const length = value.trim().length;
  const tooLong = length > DM_MAX_LENGTH;
  const canSend = length > 0 && !tooLong && !disabled;
  // An edit emptied cannot be saved: the way to take a line back is Unsend, said where the count shows.
  const emptiedEdit = banner?.mode === 'edit' && length === 0;

  // Grow up to about six lines, then scroll inside.
  useGrowingTextarea(area, value);
  const form = useRef<HTMLFormElement>(null);
  useComposerOnScreen();
  useKeyboardSafe(form);

  return (
    <form
      ref={form}
      className="shrink-0 border-t border-border bg-background/95 px-3 pb-[max(0.625rem,env(safe-area-inset-bottom))] pt-2.5 backdrop-blur md:px-6"
      onSubmit={(e) => {
        e.preventDefault();
        if (canSend) onSend();
      }}
    >
      {banner && <ComposerBanner mode={banner.mode} name={banner.name} body={banner.body} onCancel={() => onCancelBanner?.()} />}
      <div className="flex items-end gap-2">
        <label htmlFor="dm-composer" className="sr-only">
          {banner?.mode === 'edit' ? 'Edit message' : `Message ${name}`}
        </label>
        <textarea
          id="dm-composer"
          data-enter-sends
          ref={area}
          rows={1}
          value={value}
          placeholder={`Message ${name}…`}
          aria-describedby="dm-composer-hint dm-composer-count"
          aria-invalid={tooLong || undefined}
          onChange={(e) => onChange(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              if (canSend) onSend();
            } else if (e.key === 'Escape' && banner) {
              e.preventDefault();
              onCancelBanner?.();
            }
          }}
          className={cn(
            'max-h-40 min-h-11 flex-1 resize-none [field-sizing:content] rounded-3xl border border-input bg-card px-4 py-2.5 text-base leading-snug text-foreground placeholder:text-muted-foreground/80 focus-visible:outline-2 focus-visible:outline-ring md:text-[15px]',
            tooLong && 'border-destructive',
          )}
        />
        <Button
          type="submit"
          size="icon"
          className="size-11 shrink-0"
          disabled={!canSend}
          aria-label={banner?.mode === 'edit' ? 'Save edit' : 'Send message'}
        >
          <SendHorizontal aria-hidden />
        </Button>
      </div>
      <p id="dm-composer-hint" className="sr-only">
        Press Enter to send, Shift and Enter for a new line.
      </p>
      <p
        id="dm-composer-count"
        aria-live="polite"
        className={cn(
          'px-4 pt-1 text-right text-xs tabular-nums empty:hidden',
          tooLong ? 'font-medium text-destructive' : 'text-muted-foreground',
          emptiedEdit && 'text-left',
        )}
      >
        {emptiedEdit
          ? LINE_MESSAGES.editEmpty
          : length >= COUNTER_FROM
            ? tooLong
              ? `${DM_MESSAGES.tooLong} (${length}/${DM_MAX_LENGTH})`
              : `${length}/${DM_MAX_LENGTH}`
            : ''}
      </p>
    </form>
  );
});
