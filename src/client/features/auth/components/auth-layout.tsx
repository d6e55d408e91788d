import { HeartHandshake, MessagesSquare, UsersRound } from 'lucide-react';
import { Outlet } from 'react-router';
import { Logo } from '../../../components/brand/logo';

/** The welcome step's three promises (spec §2), reused on the auth marketing panel. */
export const FEATURE_CARDS = [
  { icon: UsersRound, title: 'Join Themed Mixers', text: 'Hop into themed group chats with 4-8 people who share your interests.' },
  { icon: MessagesSquare, title: 'Real Conversations', text: 'No swiping, no bios to judge — just talking about things you love.' },
  { icon: HeartHandshake, title: 'Mutual Connections', text: 'Private chats open only when the feeling is mutual.' },
] as const;

/** Two columns: marketing panel (desktop only) and the page (spec §2 "Auth layout"). */
export function AuthLayout() {
  return (
    <div className="grid min-h-dvh md:grid-cols-2">
      <aside className="relative hidden overflow-hidden bg-gradient-to-br from-[#c2185b] via-[#9c1f6e] to-[#4a1d6e] p-10 text-white md:flex md:flex-col md:justify-between">
        <Logo className="text-white [&>span:first-child]:bg-white [&>span:first-child]:text-[#c2185b]" />
        <div className="max-w-md">
          {/* A slogan, not the page's heading: each auth page has its own h1 (the panel is hidden on phones). */}
          <p className="font-display text-4xl font-extrabold leading-tight lg:text-5xl">Dating sucks, we're here to make it better</p>
          <ul className="mt-8 grid gap-4">
            {FEATURE_CARDS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4 rounded-2xl bg-white/12 p-4 backdrop-blur-sm ring-1 ring-white/20">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white/20">
                  <Icon className="size-5" aria-hidden />
                </span>
                <span>
                  <span className="block font-semibold">{title}</span>
                  <span className="block text-sm text-white/85">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="text-sm text-white/70">For adults 18+ in the UK.</p>
        <div aria-hidden className="pointer-events-none absolute -right-24 -top-24 size-72 rounded-full bg-white/10" />
      </aside>
      <main className="flex flex-col px-5 py-8 sm:px-10">
        <div className="md:hidden">
          <Logo />
        </div>
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-8">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
