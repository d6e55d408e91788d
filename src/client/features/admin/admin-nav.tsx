import { SidebarItem } from '../../components/ui/nav-item';
import { NavLink, useLocation } from 'react-router';
import { cn } from '../../lib/cn';
import { useAuth } from '../../lib/auth';
import { ADMIN_LINKS, isAdminLinkActive } from './admin-links';

/**
 * The sidebar's admin section (admins only): links with icons to the admin pages. Collapsed,
 * only the icons show, with their names in tooltips and for screen readers. `dense` (the
 * desktop sidebar): a tighter list, so all nine fit under the main navigation at 1280×800.
 */
export function AdminNav({ expanded, dense = false }: { expanded: boolean; dense?: boolean }) {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (user?.role !== 'admin') return null;
  return (
    <ul
      aria-label="Admin"
      className={cn('grid', dense ? 'gap-0.5' : 'gap-1', expanded ? 'mt-1.5' : 'mt-3 border-t border-border pt-3')}
      data-testid="admin-nav"
    >
      {ADMIN_LINKS.map((item) => {
        const active = isAdminLinkActive(pathname, item);
        const link = (
          <NavLink
            to={item.to}
            end={'exact' in item}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'flex items-center gap-3 rounded-xl px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
              dense ? 'h-7' : 'h-9',
              active && 'bg-accent text-accent-foreground hover:bg-accent hover:text-accent-foreground',
              !expanded && 'justify-center px-0',
            )}
          >
            <item.icon className="size-[18px] shrink-0" aria-hidden />
            {expanded ? <span className="truncate">{item.label}</span> : <span className="sr-only">Admin: {item.label}</span>}
          </NavLink>
        );
        return (
          <SidebarItem key={item.to} expanded={expanded} label={`Admin: ${item.label}`}>
            {link}
          </SidebarItem>
        );
      })}
    </ul>
  );
}
