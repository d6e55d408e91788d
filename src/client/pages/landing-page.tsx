import { Heart, Lock, MapPin, MessageCircleHeart, ShieldCheck, Sparkles, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import { Logo } from '../components/brand/logo';
import { Button } from '../components/ui/button';
import { useAuth } from '../lib/auth';

const STEPS = [
  {
    icon: UsersRound,
    title: 'Join a mixer',
    text: 'Pick a themed group chat of 4–8 people who love what you love — board games, hiking, sourdough, indie films.',
  },
  {
    icon: Heart,
    title: 'Fancy someone',
    text: 'Clicked with someone? Afterwards, privately fancy them. Nobody ever sees a fancy that isn’t returned.',
  },
  {
    icon: MessageCircleHeart,
    title: 'It’s mutual? Chat',
    text: 'When the feeling is mutual, it’s a match and a private conversation opens for the two of you.',
  },
];

const THEMES = [
  'Board Game Night',
  'Sunday Sourdough Swap',
  'Peak District Walkers',
  'Indie Film Club',
  'Pub Quiz Warm-up',
  'Language Exchange',
  'Bouldering Buddies',
  'Book Club: Short Reads',
];

const PROMISES = [
  {
    icon: ShieldCheck,
    title: 'Adults only, real people',
    text: 'Fancy is for over-18s in the UK. Every account confirms its email, and every member can block or report.',
  },
  {
    icon: MapPin,
    title: 'Your city, never your location',
    text: 'We store only the city you choose — and you can hide it. We never collect your precise location.',
  },
  {
    icon: Lock,
    title: 'Photos stay private',
    text: 'We strip location and camera data from every photo, and only signed-in members can see them.',
  },
];

export default function LandingPage() {
  const { user } = useAuth();
  return (
    <div className="min-h-dvh">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-5 py-5">
        <Logo />
        <nav aria-label="Account" className="flex items-center gap-2">
          {user ? (
            <Button asChild>
              <Link to="/home">Go to your dashboard</Link>
            </Button>
          ) : (
            <>
              <Button asChild variant="ghost">
                <Link to="/auth/login">Log in</Link>
              </Button>
              <Button asChild>
                <Link to="/auth/register">Join Fancy</Link>
              </Button>
            </>
          )}
        </nav>
      </header>

      <main>
        <section className="mx-auto grid max-w-6xl items-center gap-10 px-5 pb-16 pt-8 md:grid-cols-2 md:pt-16">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-accent px-3 py-1 text-sm font-semibold text-accent-foreground">
              <Sparkles className="size-4" aria-hidden /> No swipes. No superficial judgements.
            </p>
            <h1 className="mt-5 font-display text-4xl font-extrabold leading-[1.1] tracking-tight sm:text-5xl lg:text-6xl">
              Meet people by <span className="text-primary">talking about what you love</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              Fancy puts you in small themed group chats — mixers of 4–8 people who share an interest. Fun first, compatibility second. If
              you fancy someone and they fancy you back, a private conversation opens.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              {user ? (
                <Button asChild size="lg">
                  <Link to="/home">Go to your dashboard</Link>
                </Button>
              ) : (
                <>
                  <Button asChild size="lg">
                    <Link to="/auth/register">Create your free account</Link>
                  </Button>
                  <Button asChild size="lg" variant="outline">
                    <Link to="/auth/login">I already have one</Link>
                  </Button>
                </>
              )}
            </div>
            <p className="mt-4 text-sm text-muted-foreground">Free, for adults 18+ in the UK.</p>
          </div>
          <div aria-hidden className="relative mx-auto w-full max-w-md">
            <div className="rounded-3xl bg-gradient-to-br from-[#c2185b] via-[#9c1f6e] to-[#4a1d6e] p-5 text-white shadow-2xl">
              <p className="text-sm font-semibold text-white/80">Live now · Board Game Night</p>
              <div className="mt-4 grid gap-3 text-sm">
                <p className="w-fit max-w-[85%] rounded-2xl rounded-bl-md bg-white/15 px-4 py-2.5">
                  Hot take: Ticket to Ride is the perfect first-date game
                </p>
                <p className="ml-auto w-fit max-w-[85%] rounded-2xl rounded-br-md bg-white px-4 py-2.5 text-[#4a1d6e]">
                  Only if nobody blocks the Edinburgh route. I hold grudges.
                </p>
                <p className="w-fit max-w-[85%] rounded-2xl rounded-bl-md bg-white/15 px-4 py-2.5">Ha! Noted. Catan on Thursday then?</p>
              </div>
              <div className="mt-5 flex items-center justify-between rounded-2xl bg-white/10 px-4 py-3">
                <span className="text-sm">6 of 8 seats taken</span>
                <span className="flex items-center gap-1.5 rounded-full bg-white px-3 py-1 text-sm font-semibold text-[#c2185b]">
                  <Heart className="size-4 fill-current" /> Fancy
                </span>
              </div>
            </div>
          </div>
        </section>

        <section aria-labelledby="how" className="bg-muted/50 py-16">
          <div className="mx-auto max-w-6xl px-5">
            <h2 id="how" className="font-display text-3xl font-extrabold">
              How it works
            </h2>
            <ol className="mt-8 grid gap-5 md:grid-cols-3">
              {STEPS.map(({ icon: Icon, title, text }, i) => (
                <li key={title} className="rounded-2xl border border-border bg-card p-6">
                  <span className="flex items-center gap-3">
                    <span className="flex size-11 items-center justify-center rounded-xl bg-accent text-accent-foreground">
                      <Icon className="size-5" aria-hidden />
                    </span>
                    <span className="text-sm font-semibold text-muted-foreground">Step {i + 1}</span>
                  </span>
                  <h3 className="mt-4 text-lg font-bold">{title}</h3>
                  <p className="mt-2 text-muted-foreground">{text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section aria-labelledby="themes" className="mx-auto max-w-6xl px-5 py-16">
          <h2 id="themes" className="font-display text-3xl font-extrabold">
            Mixers people are joining
          </h2>
          <p className="mt-2 text-muted-foreground">A few of the themes running this week. New ones start every day.</p>
          <ul className="mt-6 flex flex-wrap gap-2.5">
            {THEMES.map((t) => (
              <li key={t} className="rounded-full border border-border bg-card px-4 py-2 text-sm font-medium">
                {t}
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="safety" className="bg-muted/50 py-16">
          <div className="mx-auto max-w-6xl px-5">
            <h2 id="safety" className="font-display text-3xl font-extrabold">
              Safe and private by design
            </h2>
            <ul className="mt-8 grid gap-5 md:grid-cols-3">
              {PROMISES.map(({ icon: Icon, title, text }) => (
                <li key={title} className="rounded-2xl border border-border bg-card p-6">
                  <Icon className="size-6 text-primary" aria-hidden />
                  <h3 className="mt-3 text-lg font-bold">{title}</h3>
                  <p className="mt-2 text-muted-foreground">{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="mx-auto max-w-3xl px-5 py-20 text-center">
          <h2 className="font-display text-3xl font-extrabold sm:text-4xl">Dating sucks, we're here to make it better</h2>
          <p className="mt-3 text-muted-foreground">Join a mixer tonight. Worst case, you've had a good chat about something you love.</p>
          <Button asChild size="lg" className="mt-8">
            <Link to={user ? '/home' : '/auth/register'}>{user ? 'Go to your dashboard' : 'Join Fancy — it’s free'}</Link>
          </Button>
        </section>
      </main>

      <footer className="border-t border-border">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-5 py-8 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>© {new Date().getFullYear()} Fancy · For adults 18+ in the UK</p>
          <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-2">
            <Link to="/terms" className="hover:text-foreground">
              Terms &amp; Conditions
            </Link>
            <Link to="/privacy" className="hover:text-foreground">
              Privacy Policy
            </Link>
            <Link to="/contact-support" className="hover:text-foreground">
              Contact Support
            </Link>
            <Link to="/status" className="hover:text-foreground">
              Status
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
