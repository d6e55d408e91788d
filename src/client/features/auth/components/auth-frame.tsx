import { Logo } from '../../../components/brand/logo';

/** A centred single card with the logo, for gate screens outside the auth routes. */
export function AuthLayoutFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col px-5 py-8">
      <Logo />
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">{children}</main>
    </div>
  );
}
