import { type LucideIcon, MoreHorizontal, Pencil, Reply, Undo2 } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { type KeyboardEvent, type PointerEvent, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { REACTIONS } from '../../../shared/chat-lines';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { MenuContent, MenuItem } from '../../components/ui/menu';
import { cn } from '../../lib/cn';
import { useOpenedOnce } from './opened-once';

/**
 * One entry another part of the app adds to a line's menu (e.g. "Report", "Hide line",
 * "Mute"): shown below the line's own actions, in the order given.
 */
export interface LineAction {
  /** Stable and unique within the menu, e.g. 'report'. */
  key: string;
  label: string;
  icon: LucideIcon;
  onSelect: () => void;
  destructive?: boolean;
}

export interface LineActionsProps {
  /** What a screen reader hears for the line, e.g. "Maya at 20:14: Anyone seen Aftersun?". */
  label: string;
  /** The line itself (bubble, quote, reactions). */
  children: ReactNode;
  /** Which side the "…" button sits on: the line's outer side. */
  side: 'left' | 'right';
  /** My reaction on the line, shown as chosen in the menu. */
  myReaction?: string | null;
  onReply?: () => void;
  onReact?: (emoji: string) => void;
  /** Only for my own line within the edit window. */
  onEdit?: () => void;
  /** Only for my own line. */
  onUnsend?: () => void;
  /** More entries (safety actions and the like), after the line's own. */
  extraActions?: readonly LineAction[];
  className?: string;
  /** The id scrolled to and highlighted when a reply's quote is tapped. */
  lineId?: string;
}

const LONG_PRESS_MS = 450;
const TRIGGER =
  'shrink-0 self-center rounded-full p-1.5 text-muted-foreground opacity-0 transition-opacity hover:bg-muted hover:text-foreground focus-visible:opacity-100 group-hover/line:opacity-100 group-focus-within/line:opacity-100 data-[state=open]:opacity-100';

/**
 * A chat line with its one menu of actions (issue 29): reply, react, edit, unsend, plus any
 * `extraActions`. Reachable by keyboard (the line is focusable; Enter, Space or "." opens the
 * menu), by long-press on touch, and by the "…" button that shows on hover or focus.
 */
export function LineActions({
  label,
  children,
  side,
  myReaction,
  onReply,
  onReact,
  onEdit,
  onUnsend,
  extraActions,
  className,
  lineId,
}: LineActionsProps) {
  // Until the menu first opens, the "…" button is a plain button (the Radix menu mounts then).
  const { armed, open, setOpen, openNow: openMenu } = useOpenedOnce();
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  // A long-press opens the menu under the finger: its lift must not become a tap, which would
  // choose the item it lands on or close the menu as a tap outside it.
  const openedByPress = useRef(false);
  const hasActions = Boolean(onReply || onReact || onEdit || onUnsend || extraActions?.length);
  // Unsending takes the line's last action and its "…" button with it: keyboard focus, which the
  // menu gave back to that button, stays on the line instead of falling to the top of the page.
  const lineRef = useRef<HTMLDivElement>(null);
  const unsending = useRef(false);
  // Unsend sits right under Edit and cannot be undone: it asks first.
  const [confirmUnsend, setConfirmUnsend] = useState(false);
  useLayoutEffect(() => {
    if (hasActions || !unsending.current) return;
    unsending.current = false;
    if (!document.activeElement || document.activeElement === document.body) lineRef.current?.focus();
  }, [hasActions]);

  const cancelPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType !== 'touch' || !hasActions) return;
    cancelPress();
    openedByPress.current = false;
    const timer = setTimeout(() => {
      openedByPress.current = true;
      openMenu();
    }, LONG_PRESS_MS);
    press.current = { x: e.clientX, y: e.clientY, timer };
  };
  const onPointerMove = (e: PointerEvent) => {
    // A scroll is not a long-press.
    if (press.current && Math.hypot(e.clientX - press.current.x, e.clientY - press.current.y) > 10) cancelPress();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget || !hasActions) return;
    if (e.key === 'Enter' || e.key === ' ' || e.key === '.' || e.key === 'ContextMenu') {
      e.preventDefault();
      openMenu();
    }
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a chat line is not a form's fieldset; "group" names it for screen readers
    <div
      ref={lineRef}
      data-line-id={lineId}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: each line is focusable so its actions are reachable by keyboard (issue 29)
      tabIndex={0}
      role="group"
      aria-roledescription="message"
      aria-label={label}
      aria-keyshortcuts={hasActions ? 'Enter' : undefined}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={cancelPress}
      onPointerCancel={cancelPress}
      onTouchEnd={(e) => {
        // No click or focus change from the lift of the press that opened the menu.
        if (!openedByPress.current) return;
        openedByPress.current = false;
        e.preventDefault();
      }}
      onContextMenu={(e) => {
        // The phone's own long-press menu would cover ours.
        if (press.current || open) e.preventDefault();
      }}
      className={cn(
        'group/line relative flex items-center gap-1 rounded-2xl outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring data-[highlight=true]:bg-primary/15',
        side === 'right' ? 'flex-row-reverse' : 'flex-row',
        className,
      )}
    >
      <div className="min-w-0 max-w-full [-webkit-touch-callout:none]">{children}</div>
      {hasActions && !armed && (
        <button type="button" tabIndex={-1} aria-label="Message actions" aria-haspopup="menu" onClick={openMenu} className={TRIGGER}>
          <MoreHorizontal className="size-4" aria-hidden />
        </button>
      )}
      {hasActions && armed && (
        <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
          <DropdownMenu.Trigger asChild>
            <button type="button" tabIndex={-1} aria-label="Message actions" className={TRIGGER}>
              <MoreHorizontal className="size-4" aria-hidden />
            </button>
          </DropdownMenu.Trigger>
          <MenuContent
            align={side === 'right' ? 'end' : 'start'}
            aria-label="Message actions"
            className="min-w-52"
            // Back to the line, not to the hidden "…" button (Escape, or an action that moved focus nowhere);
            // an action that focused something (Reply: the composer) keeps it.
            onCloseAutoFocus={(e) => {
              e.preventDefault();
              const active = document.activeElement;
              if (!active || active === document.body || lineRef.current?.contains(active)) lineRef.current?.focus({ preventScroll: true });
            }}
          >
            {onReact && (
              <DropdownMenu.Group
                aria-label="React"
                className="mb-1 flex justify-between gap-0.5 border-b border-border px-1 pb-1.5"
                // The reactions sit in a row: Left and Right move along it (Up and Down go through the whole menu).
                onKeyDown={(e) => {
                  if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
                  const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
                  const at = items.indexOf(document.activeElement as HTMLElement);
                  if (at < 0) return;
                  e.preventDefault();
                  items[(at + (e.key === 'ArrowRight' ? 1 : items.length - 1)) % items.length].focus();
                }}
              >
                {REACTIONS.map((emoji) => (
                  <DropdownMenu.Item
                    key={emoji}
                    aria-label={myReaction === emoji ? `Remove your ${emoji} reaction` : `React with ${emoji}`}
                    onSelect={() => onReact(emoji)}
                    className={cn(
                      'flex size-9 cursor-pointer items-center justify-center rounded-full text-xl outline-none data-[highlighted]:bg-muted',
                      myReaction === emoji && 'bg-primary/15 ring-1 ring-primary',
                    )}
                  >
                    <span aria-hidden>{emoji}</span>
                  </DropdownMenu.Item>
                ))}
              </DropdownMenu.Group>
            )}
            {onReply && (
              <MenuItem icon={Reply} onSelect={onReply}>
                Reply
              </MenuItem>
            )}
            {onEdit && (
              <MenuItem icon={Pencil} onSelect={onEdit}>
                Edit
              </MenuItem>
            )}
            {onUnsend && (
              <MenuItem icon={Undo2} destructive onSelect={() => setConfirmUnsend(true)}>
                Unsend
              </MenuItem>
            )}
            {extraActions?.length ? <DropdownMenu.Separator className="my-1 h-px bg-border" /> : null}
            {extraActions?.map((a) => (
              <MenuItem key={a.key} icon={a.icon} destructive={a.destructive} onSelect={a.onSelect}>
                {a.label}
              </MenuItem>
            ))}
          </MenuContent>
        </DropdownMenu.Root>
      )}
      {onUnsend && (
        <ConfirmDialog
          open={confirmUnsend}
          onOpenChange={setConfirmUnsend}
          title="Unsend this message?"
          description="It's taken back for everyone in the chat, and this can't be undone."
          confirmLabel="Unsend"
          destructive
          onConfirm={() => {
            setConfirmUnsend(false);
            unsending.current = true;
            onUnsend();
          }}
        />
      )}
    </div>
  );
}
