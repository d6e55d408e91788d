import { HeartHandshake, MessagesSquare, Sparkles, Ticket, UsersRound } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { useAuth } from '../../lib/auth';
import { pickCampaign, withCampaign } from './campaign-params';
import { PublicLayout } from './public-layout';
import { usePageTitle } from '../../lib/use-page-title';

const PROMISES = [
  { icon: UsersRound, title: 'Join Themed Mixers', text: 'Hop into themed group chats with 4–8 people who share your interests.' },
  { icon: MessagesSquare, title: 'Real Conversations', text: 'No swiping, no bios to judge — just talking about things you love.' },
  { icon: HeartHandshake, title: 'Mutual Connections', text: 'Private chats open only when the feeling is mutual.' },
];

const STEPS = [
  { title: 'Create your free account', text: 'Takes a minute. Then a few quick, fun steps to build a profile that feels like you.' },
  { title: 'Pick a mixer', text: 'Board games, hill walking, sourdough, indie films… choose a theme you could chat about for hours.' },
  { title: 'Fancy someone', text: 'Clicked with someone? Fancy them privately. If they fancy you too, a private chat opens.' },
];

/** Where campaign links (posters, QR codes, partners) land; the campaign parameters travel on to registration. */
export default function CampaignPage() {
  usePageTitle('Welcome to Fancy');
  const { user } = useAuth();
  const [params] = useSearchParams();
  const campaign = useMemo(() => pickCampaign(params), [params]);
  const registerTo = withCampaign('/auth/register', campaign);
  const loginTo = '/auth/login';

  const cta = user ? (
    <Button asChild size="lg" className="w-full sm:w-auto">
      <Link to="/home">Go to your dashboard</Link>
    </Button>
  ) : (
    <Button asChild size="lg" className="w-full sm:w-auto">
      <Link to={registerTo}>Join Fancy</Link>
    </Button>
  );

  return (
    <PublicLayout joinTo={registerTo}>
      <section className="relative overflow-hidden">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[28rem] bg-gradient-to-b from-accent/80 via-accent/30 to-transparent"
        />
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 pb-14 pt-10 sm:px-5 md:grid-cols-[1.1fr_1fr] md:pb-20 md:pt-16">
          <div>
            <p className="inline-flex max-w-full items-center gap-2 rounded-full bg-card px-3 py-1 text-sm font-semibold text-accent-foreground shadow-sm ring-1 ring-border">
              <Sparkles className="size-4 shrink-0" aria-hidden />
              <span className="truncate">{campaign.label ? `Welcome from ${campaign.label}` : 'Welcome — we’re glad you found us'}</span>
            </p>
            <h1 className="mt-5 font-display text-4xl font-extrabold leading-[1.1] tracking-tight sm:text-5xl lg:text-6xl">
              Dating sucks, <span className="text-primary">we're here to make it better</span>
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              Fancy is a new way to meet people in the UK: small themed group chats called mixers, where 4–8 people talk about something
              they all love. No swipes, no superficial judgements. Fun first, compatibility second.
            </p>
            <div className="mt-8 flex flex-wrap items-center gap-3">
              {cta}
              {!user && (
                <Button asChild size="lg" variant="outline" className="w-full sm:w-auto">
                  <Link to={loginTo}>I already have an account</Link>
                </Button>
              )}
            </div>
            {campaign.code && !user && (
              <p className="mt-5 inline-flex items-center gap-2 rounded-xl bg-secondary px-3 py-2 text-sm text-secondary-foreground">
                <Ticket className="size-4 shrink-0" aria-hidden />
                <span>
                  We'll keep your code <strong className="font-semibold">{campaign.code}</strong> with your new account.
                </span>
              </p>
            )}
            <p className="mt-4 text-sm text-muted-foreground">Free, for adults 18+ in the UK.</p>
          </div>

          <ul aria-label="Why people like Fancy" className="grid gap-3">
            {PROMISES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4 rounded-2xl border border-border bg-card p-5 shadow-sm">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-primary text-primary-foreground">
                  <Icon className="size-5" aria-hidden />
                </span>
                <span>
                  <span className="block font-bold">{title}</span>
                  <span className="mt-1 block text-muted-foreground">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="campaign-how" className="bg-muted/50 py-14 md:py-16">
        <div className="mx-auto max-w-6xl px-4 sm:px-5">
          <h2 id="campaign-how" className="font-display text-3xl font-extrabold">
            Three steps to your first mixer
          </h2>
          <ol className="mt-8 grid gap-5 md:grid-cols-3">
            {STEPS.map((s, i) => (
              <li key={s.title} className="rounded-2xl border border-border bg-card p-6">
                <span className="flex size-9 items-center justify-center rounded-full bg-accent font-display font-extrabold text-accent-foreground">
                  {i + 1}
                </span>
                <h3 className="mt-4 text-lg font-bold">{s.title}</h3>
                <p className="mt-2 text-muted-foreground">{s.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="mx-auto max-w-3xl px-4 py-16 text-center sm:px-5 md:py-20">
        <h2 className="font-display text-3xl font-extrabold sm:text-4xl">Worst case? You've had a good chat about something you love.</h2>
        <p className="mt-3 text-muted-foreground">
          We only ever show your city, never your location, and photos are visible to signed-in members only.
        </p>
        <div className="mt-8 flex justify-center">{cta}</div>
      </section>
    </PublicLayout>
  );
}
