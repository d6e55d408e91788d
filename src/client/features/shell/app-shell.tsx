import { useQuery } from '@tanstack/react-query';
import { Menu, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react';
import { Dialog, Tooltip } from 'radix-ui';
import { useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../../../shared/constants';
import { Logo } from '../../components/brand/logo';
import { SidebarItem } from '../../components/ui/nav-item';
import { RealtimeProvider } from '../../lib/realtime';
import { MatchNotifier } from '../matches';
import { cn } from '../../lib/cn';
import { AdminNav } from '../admin';
import { useAuth } from '../../lib/auth';
import { AccountMenu } from './account-menu';
import { NoticeToaster } from './notice-toaster';
import { type BadgeKey, badgeLabel, isActivePath, MOBILE_BAR, NAV_ITEMS } from './nav-items';
import { useSidebarState } from './sidebar-state';
import { ThemeSwitch } from './theme-switch';
import { preloadQueries } from '../../lib/query';
import { statsQuery } from '../../lib/stats';

export type NavCounts = Partial<Record<BadgeKey, number>>;

/** Badge counts for the navigation, shared with Home's counters through the query cache. */
function useNavCounts(): NavCounts {
  const { data } = useQuery({ ...statsQuery, refetchInterval: 60_000 });
  return { unreadMessages: data?.unreadMessages, newMatches: data?.newMatches, mixerMentions: data?.mixerMentions };
}

const BADGE_MEANING: Record<BadgeKey, string> = { unreadMessages: 'unread', newMatches: 'new', mixerMentions: 'unread mentions' };

function Badge({ count, kind, className }: { count?: number; kind?: BadgeKey; className?: string }) {
  const label = badgeLabel(count);
  if (!label || !kind) return null;
  return (
    <span
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-bold leading-5 text-primary-foreground',
        className,
      )}
    >
      {label}
      <span className="sr-only"> {BADGE_MEANING[kind]}</span>
    </span>
  );
}

function NavList({ expanded, counts, onNavigate }: { expanded: boolean; counts: NavCounts; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <ul className="grid gap-1">
      {NAV_ITEMS.map((item) => {
        const active = isActivePath(pathname, item.to);
        const badge = 'badge' in item ? item.badge : undefined;
        const count = badge ? counts[badge] : undefined;
        const link = (
          <NavLink
            to={item.to}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            className={cn(
              'relative flex h-10 items-center gap-3 rounded-xl px-3 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
              active && 'bg-accent text-accent-foreground hover:bg-accent hover:text-accent-foreground',
              !expanded && 'justify-center px-0',
            )}
          >
            <item.icon className="size-[18px] shrink-0" aria-hidden />
            {expanded ? <span className="flex-1 truncate">{item.label}</span> : <span className="sr-only">{item.label}</span>}
            {expanded ? (
              <Badge count={count} kind={badge} />
            ) : (
              <Badge count={count} kind={badge} className="absolute -right-1 -top-1 scale-90" />
            )}
          </NavLink>
        );
        return (
          <SidebarItem key={item.to} expanded={expanded} label={item.label}>
            {link}
          </SidebarItem>
        );
      })}
    </ul>
  );
}

/** The signed-in layout: collapsible sidebar on desktop; top bar, sheet and bottom bar below 768 px (spec §2). */
/** The badge counts, loaded with every member page (the page's HTML has them), so the shell renders once with them. */
export const preload = () => preloadQueries((client) => [client.ensureQueryData({ ...statsQuery, revalidateIfStale: true })]);

export default function AppShell() {
  return (
    <RealtimeProvider>
      <MatchNotifier />
      <NoticeToaster />
      <Tooltip.Provider delayDuration={TOOLTIP_DELAY_MS} skipDelayDuration={TOOLTIP_SKIP_DELAY_MS}>
        <Shell />
      </Tooltip.Provider>
    </RealtimeProvider>
  );
}

function Shell() {
  const { expanded, toggle } = useSidebarState();
  const counts = useNavCounts();
  const { pathname } = useLocation();
  const [sheetOpen, setSheetOpen] = useState(false);
  // Any navigation (including admin links) closes the mobile menu sheet.
  const [sheetPath, setSheetPath] = useState(pathname);
  if (sheetPath !== pathname) {
    setSheetPath(pathname);
    setSheetOpen(false);
  }
  const auth = useAuth();

  return (
    <div className="min-h-dvh md:flex">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-card shadow-md focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* Desktop sidebar */}
      <aside
        aria-label="Sidebar"
        data-state={expanded ? 'expanded' : 'collapsed'}
        className={cn(
          'sticky top-0 hidden h-dvh shrink-0 flex-col border-r border-border bg-sidebar transition-[width] duration-200 md:flex',
          expanded ? 'w-64' : 'w-12',
        )}
      >
        <div className={cn('flex h-16 items-center', expanded ? 'justify-between px-4' : 'justify-center')}>
          <Logo to="/home" compact={!expanded} className={cn(!expanded && '[&>span:first-child]:size-7')} />
        </div>
        <nav aria-label="Main" className={cn('flex-1 overflow-y-auto', expanded ? 'px-3' : 'px-1.5')}>
          <NavList expanded={expanded} counts={counts} />
          {auth.user?.role === 'admin' && expanded && (
            <p className="mt-4 px-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">Admin</p>
          )}
          <AdminNav expanded={expanded} dense />
        </nav>
        {/* Theme and the collapse toggle share one row, so the admin links fit above the fold at 800 px (issue 17). */}
        <div className={cn('grid gap-2 border-t border-border', expanded ? 'p-3' : 'p-1.5')}>
          <div className={cn('flex items-center', expanded ? 'justify-between gap-2' : 'order-last justify-center')}>
            {expanded && <ThemeSwitch />}
            <button
              type="button"
              onClick={toggle}
              className="flex size-9 items-center justify-center rounded-xl text-muted-foreground hover:bg-muted hover:text-foreground"
              aria-label={expanded ? 'Collapse sidebar' : 'Expand sidebar'}
              title="Toggle sidebar (Ctrl+B)"
            >
              {expanded ? <PanelLeftClose className="size-4" aria-hidden /> : <PanelLeftOpen className="size-4" aria-hidden />}
            </button>
          </div>
          <AccountMenu compact={!expanded} />
        </div>
      </aside>

      {/* Mobile top bar */}
      <header
        data-shell-bar
        className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-border bg-background/90 px-3 backdrop-blur md:hidden"
      >
        <div className="flex items-center gap-1">
          <Dialog.Root open={sheetOpen} onOpenChange={setSheetOpen}>
            <Dialog.Trigger className="flex size-10 items-center justify-center rounded-full hover:bg-muted" aria-label="Open menu">
              <Menu className="size-5" aria-hidden />
            </Dialog.Trigger>
            <Dialog.Portal>
              <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
              <Dialog.Content className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col bg-sidebar p-3 shadow-xl outline-none">
                <div className="flex h-12 items-center justify-between px-1">
                  <Logo to="/home" />
                  <Dialog.Close className="flex size-10 items-center justify-center rounded-full hover:bg-muted" aria-label="Close menu">
                    <X className="size-5" aria-hidden />
                  </Dialog.Close>
                </div>
                <Dialog.Title className="sr-only">Menu</Dialog.Title>
                <Dialog.Description className="sr-only">Main navigation</Dialog.Description>
                <nav aria-label="Main" className="mt-2 flex-1 overflow-y-auto">
                  <NavList expanded counts={counts} onNavigate={() => setSheetOpen(false)} />
                  {auth.user?.role === 'admin' && (
                    <p className="mt-6 px-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">Admin</p>
                  )}
                  <AdminNav expanded />
                </nav>
                <ThemeSwitch className="mx-auto mb-2" showLabels />
              </Dialog.Content>
            </Dialog.Portal>
          </Dialog.Root>
          <Logo to="/home" />
        </div>
        <AccountMenu compact side="bottom" />
      </header>

      <main id="main" className="min-w-0 flex-1 pb-24 md:pb-0">
        <Outlet />
      </main>

      {/* Mobile bottom bar */}
      <nav
        aria-label="Quick"
        data-shell-bar
        className="fixed inset-x-0 bottom-0 z-30 border-t border-border bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
      >
        <ul className="grid grid-cols-5">
          {MOBILE_BAR.map((to) => {
            const item = NAV_ITEMS.find((i) => i.to === to);
            if (!item) return null;
            const active = isActivePath(pathname, to);
            const badge = 'badge' in item ? item.badge : undefined;
            const count = badge ? counts[badge] : undefined;
            return (
              <li key={to}>
                <Link
                  to={to}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'relative flex h-16 flex-col items-center justify-center gap-1 text-[11px] font-medium text-muted-foreground',
                    active && 'text-primary',
                  )}
                >
                  <item.icon className={cn('size-[22px]', active && 'fill-primary/15')} aria-hidden />
                  {/* The accessible name starts with the visible text ("Blog" → "Blog: Modern Loveletters"), then the badge. */}
                  <span>
                    {item.short}
                    {item.label !== item.short && <span className="sr-only">{item.label.slice(item.short.length)}</span>}
                  </span>
                  <Badge count={count} kind={badge} className="absolute left-1/2 top-1.5 ml-1.5 scale-90" />
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
