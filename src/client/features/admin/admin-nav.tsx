import { Tooltip } from 'radix-ui';
import { NavLink, useLocation } from 'react-router';
import { cn } from '../../lib/cn';
import { useAuth } from '../auth';
import { ADMIN_LINKS, isAdminLinkActive } from './admin-links';

/**
 * The sidebar's admin section (admins only): links with icons to the admin pages. Collapsed,
 * only the icons show, with their names in tooltips and for screen readers.
 */
export function AdminNav({ expanded }: { expanded: boolean }) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (user?.role !== 'admin') return null;
  return (
    <ul aria-label="Admin" className={cn('grid gap-1', expanded ? 'mt-2' : 'mt-4 border-t border-border pt-4')} data-testid="admin-nav">
      {ADMIN_LINKS.map((item) => {
        const active = isAdminLinkActive(pathname, item);
        const link = (
          <NavLink
            to={item.to}
            end={'exact' in item}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex h-9 items-center gap-3 rounded-xl px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
              active && 'bg-accent text-accent-foreground hover:bg-accent hover:text-accent-foreground',
              !expanded && 'justify-center px-0',
            )}
          >
            <item.icon className="size-[18px] shrink-0" aria-hidden />
            {expanded ? <span className="truncate">{item.label}</span> : <span className="sr-only">Admin: {item.label}</span>}
          </NavLink>
        );
        return (
          <li key={item.to}>
            {expanded ? (
              link
            ) : (
              <Tooltip.Root>
                <Tooltip.Trigger asChild>{link}</Tooltip.Trigger>
                <Tooltip.Portal>
                  <Tooltip.Content
                    side="right"
                    sideOffset={10}
                    className="z-50 rounded-lg bg-foreground px-2.5 py-1.5 text-xs font-medium text-background shadow"
                  >
                    Admin: {item.label}
                  </Tooltip.Content>
                </Tooltip.Portal>
              </Tooltip.Root>
            )}
          </li>
        );
      })}
    </ul>
  );
}
