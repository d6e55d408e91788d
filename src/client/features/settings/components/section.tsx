import type { LucideIcon } from 'lucide-react';
import { Children } from 'react';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';

/** One group of settings: a heading with a short explanation, then its card(s). */
export function SettingsSection({
  id,
  icon: Icon,
  title,
  description,
  children,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  description: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="skip-offscreen scroll-mt-24 [--offscreen-size:520px]">
      <div className="mb-3 flex items-start gap-3">
        <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-xl bg-accent text-accent-foreground">
          <Icon className="size-[1.125rem]" aria-hidden />
        </span>
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="font-display text-xl font-bold">
            {title}
          </h2>
          <p className="text-sm text-muted-foreground">{description}</p>
        </div>
      </div>
      <div className="grid grid-cols-1 gap-4">{children}</div>
    </section>
  );
}

/** A card inside a section; rows inside are separated by hairlines. */
export function SettingsCard({ className, children, ...props }: React.ComponentProps<'div'>) {
  return (
    <Card className={cn('divide-y divide-border overflow-hidden', className)} {...props}>
      {children}
    </Card>
  );
}

/** A titled block inside a card (e.g. "Change password"). */
export function CardBlock({
  title,
  description,
  action,
  children,
  className,
  titleId,
}: {
  title: string;
  description?: React.ReactNode;
  action?: React.ReactNode;
  children?: React.ReactNode;
  className?: string;
  titleId?: string;
}) {
  return (
    <div className={cn('p-4 sm:p-5', className)}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h3 id={titleId} className="font-semibold">
            {title}
          </h3>
          {description && <div className="mt-0.5 text-sm text-muted-foreground">{description}</div>}
        </div>
        {action && <div className="shrink-0">{action}</div>}
      </div>
      {Children.toArray(children).length > 0 && <div className="mt-4">{children}</div>}
    </div>
  );
}
