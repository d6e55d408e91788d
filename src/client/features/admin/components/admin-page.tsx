import { useEffect, useRef } from 'react';
import { NavLink, useLocation } from 'react-router';
import { cn } from '../../../lib/cn';
import { ADMIN_LINKS, isAdminLinkActive } from '../admin-links';
import { usePageTitle } from '../../../lib/use-page-title';

/** Sets the tab title while an admin page is shown. */
export function useAdminTitle(title: string) {
  usePageTitle(`${title} · Admin`);
}

/** The admin pages' tabs for narrow screens, where the sidebar is hidden. */
function AdminTabs() {
  const { pathname } = useLocation();
  const active = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const el = active.current;
    const bar = el?.closest('nav');
    // Bring the current page's tab into view sideways (without scrolling the page).
    if (el && bar) bar.scrollLeft = el.offsetLeft - (bar.clientWidth - el.offsetWidth) / 2;
  }, []);
  return (
    <nav aria-label="Admin pages" className="relative -mx-4 mb-5 overflow-x-auto px-4 md:hidden">
      <ul className="flex w-max gap-1.5">
        {ADMIN_LINKS.map((item) => {
          const isActive = isAdminLinkActive(pathname, item);
          return (
            <li key={item.to}>
              <NavLink
                ref={isActive ? active : undefined}
                to={item.to}
                end={'exact' in item}
                aria-current={isActive ? 'page' : undefined}
                className={cn(
                  'flex h-9 items-center gap-1.5 rounded-full border border-border bg-card px-3 text-xs font-semibold text-muted-foreground',
                  isActive && 'border-primary bg-accent text-accent-foreground',
                )}
              >
                <item.icon className="size-3.5" aria-hidden />
                {item.label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Layout of every admin page: title, purpose, primary actions, content. Wide enough for tables. */
export function AdminPage({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  useAdminTitle(title);
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 md:py-8">
      <AdminTabs />
      <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-widest text-primary">Admin</p>
          <h1 className="mt-1 font-display text-2xl font-extrabold tracking-tight sm:text-3xl">{title}</h1>
          {description && <p className="mt-1 max-w-3xl text-sm text-muted-foreground">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </header>
      {children}
    </div>
  );
}

/** A titled section card. */
export function Section({
  title,
  description,
  actions,
  children,
  className,
  id,
}: {
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
  id?: string;
}) {
  const sectionId = id ?? `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const headingId = `${sectionId}-title`;
  return (
    <section
      id={sectionId}
      aria-labelledby={headingId}
      className={cn('min-w-0 rounded-2xl border border-border bg-card shadow-sm', className)}
    >
      <div className="flex flex-col gap-2 border-b border-border px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-5">
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold">
            {title}
          </h2>
          {description && <p className="text-xs text-muted-foreground">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      {children}
    </section>
  );
}
