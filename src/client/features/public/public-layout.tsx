import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Logo } from '../../components/brand/logo';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useAuth } from '../../lib/auth';

export const FOOTER_LINKS = [
  { to: '/terms', label: 'Terms & Conditions' },
  { to: '/privacy', label: 'Privacy Policy' },
  { to: '/contact-support', label: 'Contact Support' },
  { to: '/status', label: 'Status' },
] as const;

/** The frame of every public page: logo, sign-in or dashboard button, the page, and the footer links. */
export function PublicLayout({
  children,
  className,
  joinTo = '/auth/register',
}: {
  children: React.ReactNode;
  className?: string;
  /** Where "Join Fancy" goes (the campaign page keeps its parameters on it). */
  joinTo?: string;
}) {
  const { user, isLoading } = useAuth();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-card shadow-md focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="border-b border-border/70 bg-background/85 backdrop-blur print:hidden">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-5">
          <Logo />
          <nav aria-label="Account" className={cn('flex items-center gap-1.5 sm:gap-2', isLoading && 'invisible')}>
            {user ? (
              <Button asChild size="sm">
                <Link to="/home">Go to your dashboard</Link>
              </Button>
            ) : (
              <>
                <Button asChild variant="ghost" size="sm">
                  <Link to="/auth/login">Log in</Link>
                </Button>
                <Button asChild size="sm">
                  <Link to={joinTo}>Join Fancy</Link>
                </Button>
              </>
            )}
          </nav>
        </div>
      </header>

      <main id="main" tabIndex={-1} className={cn('flex-1 outline-none', className)}>
        {children}
      </main>

      <footer className="border-t border-border print:hidden">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-5">
          <p>© {new Date().getFullYear()} Fancy · For adults 18+ in the UK</p>
          <nav aria-label="Footer">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {FOOTER_LINKS.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="underline-offset-4 hover:text-foreground hover:underline">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
      </footer>
    </div>
  );
}

/** A centred message for loading failures and empty states, with an optional action. */
export function StateMessage({
  icon,
  title,
  children,
  action,
}: {
  icon: React.ReactNode;
  title: string;
  children?: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center px-5 py-20 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-accent text-accent-foreground [&_svg]:size-7">{icon}</span>
      <h1 className="mt-5 font-display text-2xl font-extrabold">{title}</h1>
      {children && <div className="mt-2 text-muted-foreground">{children}</div>}
      {action && <div className="mt-6 flex flex-wrap justify-center gap-3">{action}</div>}
    </div>
  );
}

/**
 * A public page's band under the header: the eyebrow (with its icon), the title, and `lead`
 * (one larger line) or `children` (anything else, e.g. a document's date).
 */
export function PageHeader({
  icon: Icon,
  eyebrow,
  title,
  lead,
  narrow = false,
  className,
  children,
}: {
  icon?: LucideIcon;
  eyebrow: string;
  title: string;
  lead?: React.ReactNode;
  /** The width of a single-column page (status) rather than the site's. */
  narrow?: boolean;
  className?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className={cn('border-b border-border bg-muted/50', className)}>
      <div className={cn('mx-auto px-4 py-10 sm:px-5 md:py-14', narrow ? 'max-w-3xl' : 'max-w-6xl')}>
        <p className="inline-flex items-center gap-2 text-sm font-semibold uppercase tracking-widest text-primary">
          {Icon && <Icon className="size-4" aria-hidden />}
          {eyebrow}
        </p>
        <h1 className="mt-2 font-display text-4xl font-extrabold tracking-tight sm:text-5xl">{title}</h1>
        {lead && <p className="mt-3 max-w-2xl text-lg text-muted-foreground">{lead}</p>}
        {children}
      </div>
    </div>
  );
}
