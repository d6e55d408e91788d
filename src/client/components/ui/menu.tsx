import type { LucideIcon } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A dropdown menu's panel (in a portal, aligned to the trigger's end unless told). */
export function MenuContent({ className, align = 'end', sideOffset = 6, ...props }: ComponentProps<typeof DropdownMenu.Content>) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        align={align}
        sideOffset={sideOffset}
        className={cn('z-50 min-w-44 rounded-2xl border border-border bg-card p-1.5 text-card-foreground shadow-xl', className)}
        {...props}
      />
    </DropdownMenu.Portal>
  );
}

/** One entry: an icon and its words; `destructive` (block, unmatch, log out) in red. */
export function MenuItem({
  icon: Icon,
  destructive = false,
  className,
  children,
  ...props
}: ComponentProps<typeof DropdownMenu.Item> & { icon: LucideIcon; destructive?: boolean }) {
  return (
    <DropdownMenu.Item
      className={cn(
        'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 text-sm outline-none data-[highlighted]:bg-muted data-[disabled]:opacity-50',
        destructive && 'text-destructive',
        className,
      )}
      {...props}
    >
      <Icon className={cn('size-4', !destructive && 'text-muted-foreground')} aria-hidden /> {children}
    </DropdownMenu.Item>
  );
}
