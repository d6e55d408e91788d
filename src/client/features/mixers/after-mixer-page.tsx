import { ArrowLeft, Clock, Heart, HeartHandshake, MessageCircleHeart, RefreshCw } from 'lucide-react';
import { Link, useParams } from 'react-router';
import type { AfterMixerPerson, AfterMixerView } from '../../../shared/after-mixer';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ApiError } from '../../lib/api';
import { cn } from '../../lib/cn';
import { usePageTitle } from '../../lib/use-page-title';
import { Avatar } from '../../components/ui/avatar';
import { useAfterMixer, usePromptFancy } from './after-mixer-api';
import { useFancyFeedback } from './components/fancy-feedback';
import { themeOf } from './themes';
import { now as clockNow } from '../../lib/clock';
import { londonFormat } from '../../lib/london-time';

const closesFormat = londonFormat({ weekday: 'long', hour: 'numeric', minute: '2-digit' });

function timeLeft(closesAt: string, now = clockNow().getTime()): string {
  const hours = Math.max(0, Math.round((new Date(closesAt).getTime() - now) / 3_600_000));
  if (hours <= 1) return 'Open for less than an hour more';
  return `Open for ${hours} more hours, until ${closesFormat(new Date(closesAt))}`;
}

/** /mixers/:id/after — "Who did you click with?": the others from a mixer that ended, with Fancy toggles, for 48 hours. */
export default function AfterMixerPage() {
  const { id = '' } = useParams();
  const prompt = useAfterMixer(id);
  usePageTitle('Who did you click with?');

  return (
    <div className="mx-auto max-w-4xl px-4 py-6 sm:px-6 md:py-10">
      <Link to="/home" className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Home
      </Link>
      {prompt.isPending ? (
        <div className="mt-4" aria-busy="true">
          <span className="sr-only" role="status">
            Loading
          </span>
          <div className="h-36 animate-pulse rounded-3xl bg-muted" />
          <div className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2].map((i) => (
              <div key={i} className="h-48 animate-pulse rounded-2xl bg-muted" />
            ))}
          </div>
        </div>
      ) : prompt.isError ? (
        <LoadError error={prompt.error} retry={() => void prompt.refetch()} />
      ) : (
        <Prompt view={prompt.data} />
      )}
    </div>
  );
}

function LoadError({ error, retry }: { error: Error; retry(): void }) {
  const status = error instanceof ApiError ? error.status : 0;
  const missing = status === 404 || status === 400 || status === 403;
  const notYet = status === 409;
  return (
    <Card className="mt-4 flex flex-col items-start gap-3 p-6" role="alert">
      <h1 className="font-display text-2xl font-extrabold">
        {missing ? "We couldn't find that mixer" : notYet ? 'Not over yet' : 'Something went wrong'}
      </h1>
      <p className="text-muted-foreground">
        {missing
          ? 'This page is only for people who were in the mixer when it ended.'
          : notYet
            ? error.message
            : "We couldn't load this page just now."}
      </p>
      {missing || notYet ? (
        <Button asChild variant="outline">
          <Link to="/mixers">Browse mixers</Link>
        </Button>
      ) : (
        <Button variant="outline" onClick={retry}>
          <RefreshCw aria-hidden /> Try again
        </Button>
      )}
    </Card>
  );
}

function Prompt({ view }: { view: AfterMixerView }) {
  const theme = themeOf(view.mixer.theme);
  const Icon = theme.icon;
  return (
    <>
      <header className={cn('mt-4 overflow-hidden rounded-3xl p-6 shadow-sm sm:p-8', theme.band, theme.onBand)}>
        <p className="flex items-center gap-2 text-sm font-semibold opacity-90">
          <Icon className="size-4" aria-hidden /> {view.mixer.title} · {view.mixer.topic}
        </p>
        <h1 className="mt-2 font-display text-3xl font-extrabold sm:text-4xl">Who did you click with?</h1>
        {view.open ? (
          <p className="mt-2 max-w-xl text-sm opacity-95 sm:text-base">
            Fancy anyone you'd like to see again. It's private: they'll only know if they fancy you too — then your conversation opens.
          </p>
        ) : null}
        <p className="mt-4 inline-flex items-center gap-1.5 rounded-full bg-white/20 px-3 py-1 text-xs font-semibold">
          <Clock className="size-3.5" aria-hidden />
          {view.open ? timeLeft(view.closesAt) : 'Closed'}
        </p>
      </header>
      {view.open ? <People view={view} /> : <Closed />}
    </>
  );
}

function Closed() {
  return (
    <Card className="mt-6 flex flex-col items-start gap-3 p-6" data-testid="prompt-closed">
      <HeartHandshake className="size-8 text-primary" aria-hidden />
      <h2 className="font-display text-xl font-bold">This one has closed</h2>
      <p className="text-muted-foreground">
        The "Who did you click with?" page stays open for 48 hours after a mixer. Any fancies you sent are still there, and if someone
        fancied you back, you'll find them in Matches.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/matches">Go to Matches</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/mixers">Find another mixer</Link>
        </Button>
      </div>
    </Card>
  );
}

function People({ view }: { view: AfterMixerView }) {
  const toggle = usePromptFancy(view.mixer.id);
  const { feedback } = useFancyFeedback();

  const onFancy = (p: AfterMixerPerson) => {
    const fancy = !p.fancied;
    toggle.mutate({ userId: p.id, fancy }, feedback(p.firstName));
  };

  if (!view.people.length) {
    return (
      <Card className="mt-6 flex flex-col items-start gap-3 p-6">
        <h2 className="font-display text-xl font-bold">Nobody else to fancy from this one</h2>
        <p className="text-muted-foreground">Everyone else left before the end. There's always the next mixer.</p>
        <Button asChild variant="outline">
          <Link to="/mixers">Find another mixer</Link>
        </Button>
      </Card>
    );
  }

  return (
    <section aria-labelledby="people-title" className="mt-6">
      <h2 id="people-title" className="sr-only">
        People from this mixer
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {view.people.map((p) => (
          <li key={p.id}>
            <Card
              className={cn(
                'flex h-full flex-col items-center gap-3 p-4 text-center transition-colors sm:p-5',
                p.fancied && 'border-primary/50',
              )}
              data-testid="prompt-person"
            >
              <Avatar name={p.firstName} src={p.avatarUrl} className="size-20 text-2xl sm:size-24" />
              <p className="max-w-full truncate font-display text-lg font-bold">{p.firstName}</p>
              {p.matchId ? (
                <Button asChild size="sm" className="mt-auto w-full">
                  <Link to={`/messages/${p.matchId}`}>
                    <MessageCircleHeart aria-hidden /> Say hello
                  </Link>
                </Button>
              ) : (
                <button
                  type="button"
                  aria-pressed={p.fancied}
                  aria-label={`Fancy ${p.firstName}`}
                  onClick={() => onFancy(p)}
                  className={cn(
                    'mt-auto inline-flex h-10 w-full items-center justify-center gap-1.5 rounded-full border px-3 text-sm font-semibold transition-colors',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                    p.fancied ? 'border-primary bg-primary text-primary-foreground' : 'border-primary/40 text-primary hover:bg-accent',
                  )}
                >
                  <Heart className={cn('size-4', p.fancied && 'fill-current')} aria-hidden />
                  {/* The same word pressed or not (its name is “Fancy <name>”, WCAG 2.5.3); the filled heart shows it is on. */}
                  <span aria-hidden>Fancy</span>
                </button>
              )}
              {p.matchId && <p className="text-xs font-semibold text-primary">It's mutual!</p>}
            </Card>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-center text-sm text-muted-foreground">Change your mind? Tap again to take a fancy back.</p>
    </section>
  );
}
