import { TriangleAlert } from 'lucide-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Logo } from '../components/brand/logo';
import { Button } from '../components/ui/button';
import { NotFoundPage } from './not-found-page';

/** The generic fallback for unexpected errors (spec §8), with a way back. */
export function ErrorScreen() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  console.error(error);
  return (
    <div className="flex min-h-dvh flex-col px-5 py-8">
      <header>
        <Logo />
      </header>
      <main role="alert" className="mx-auto flex max-w-md flex-1 flex-col items-center justify-center text-center">
        <span className="flex size-16 items-center justify-center rounded-2xl bg-accent text-accent-foreground">
          <TriangleAlert className="size-8" aria-hidden />
        </span>
        <h1 className="mt-6 font-display text-3xl font-extrabold">Something went wrong</h1>
        <p className="mt-3 text-muted-foreground">
          Sorry — this page hit an unexpected problem. Reloading usually fixes it; your data is safe.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button variant="outline" onClick={() => window.location.assign('/')}>
            Go to the home page
          </Button>
        </div>
      </main>
    </div>
  );
}
