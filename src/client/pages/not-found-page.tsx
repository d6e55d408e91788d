import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { Logo } from '../components/brand/logo';
import { Button } from '../components/ui/button';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="flex min-h-dvh flex-col px-5 py-8">
      <header>
        <Logo />
      </header>
      <main className="mx-auto flex max-w-md flex-1 flex-col items-center justify-center text-center">
        <span className="flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
          <Compass className="size-8" aria-hidden />
        </span>
        <p className="mt-6 text-sm font-semibold uppercase tracking-widest text-primary">404</p>
        <h1 className="mt-2 font-display text-3xl font-extrabold">We couldn't find that page</h1>
        <p className="mt-3 text-muted-foreground">The link may be old, or the page may have moved. Let's get you somewhere friendlier.</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button asChild>
            <Link to="/">Go to the home page</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/home">Open my dashboard</Link>
          </Button>
        </div>
      </main>
    </div>
  );
}
