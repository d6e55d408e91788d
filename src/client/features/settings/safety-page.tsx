import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Flag, Gavel, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  APPEAL_DAYS,
  APPEAL_TEXT_MAX,
  actionLabel,
  type MemberAction,
  type MyReport,
  appealSchema,
  whatHappensNow,
} from '../../../shared/schemas/moderation';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadError } from '../../components/ui/load-error';
import { Label, Textarea } from '../../components/ui/input';
import { Spinner } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { ApiError, api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { londonFormat } from '../../lib/london-time';
import { usePageTitle } from '../../lib/use-page-title';
import { BlockedMembers } from './blocked-members';

const mineKey = ['moderation', 'mine'] as const;
/** "30 November 2026, 14:05" in London time (spec §9), whatever the browser's own zone. */
const dateTime = londonFormat({ day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const fmt = (iso: string) => dateTime(new Date(iso));

/** "Appeal this decision": once, within 14 days, a short text (POST /api/appeals). */
export function AppealForm({ actionId, onDone }: { actionId: string; onDone?: () => void }) {
  const id = useId();
  const toast = useToast();
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const send = useMutation({
    mutationFn: (body: { actionId: string; text: string }) => api<{ id: string }>('/api/appeals', { method: 'POST', body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: mineKey }),
  });
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = appealSchema.safeParse({ actionId, text });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    try {
      await send.mutateAsync(parsed.data);
      toast({ title: 'Appeal sent', description: 'Another member of our team will look at it and tell you the outcome.' });
      onDone?.();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');
    }
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-2" aria-label="Appeal this decision">
      <Label htmlFor={`${id}-text`}>Why should we look again?</Label>
      <Textarea
        id={`${id}-text`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        maxLength={APPEAL_TEXT_MAX + 50}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        className="min-h-24"
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          You can appeal once. A different member of our team decides.
        </p>
      )}
      <Button type="submit" disabled={send.isPending} className="justify-self-start">
        {send.isPending ? 'Sending…' : 'Send appeal'}
      </Button>
    </form>
  );
}

function ActionNotice({ action }: { action: MemberAction }) {
  const [appealing, setAppealing] = useState(false);
  const status = action.reversed
    ? {
        text: action.appeal?.status === 'reversed' ? 'Reversed on appeal: it no longer applies.' : 'Reversed: it no longer applies.',
        tone: 'text-success',
      }
    : action.appeal?.status === 'upheld'
      ? { text: 'Appeal decided: the decision stands.', tone: 'text-muted-foreground' }
      : action.appeal?.status === 'open'
        ? { text: 'Appeal sent: we’ll tell you the outcome.', tone: 'text-muted-foreground' }
        : null;
  return (
    <Card className="grid gap-3 p-4 sm:p-5" data-testid="action-notice">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{actionLabel(action.action, action.days)}</h3>
        <time dateTime={action.createdAt} className="text-xs text-muted-foreground">
          {fmt(action.createdAt)}
        </time>
      </header>
      <dl className="grid gap-2 text-sm">
        <div>
          <dt className="font-medium">The rule</dt>
          <dd className="text-muted-foreground">{action.ruleText}</dd>
        </div>
        {action.quote && (
          <div>
            <dt className="font-medium">The line</dt>
            <dd>
              <blockquote className="mt-1 rounded-xl bg-muted px-3 py-2 whitespace-pre-wrap">{action.quote}</blockquote>
            </dd>
          </div>
        )}
        <div>
          <dt className="font-medium">What happens now</dt>
          <dd className="text-muted-foreground">
            {action.reversed ? 'Nothing: this decision was reversed.' : whatHappensNow(action.action, action.endsAt)}
          </dd>
        </div>
      </dl>
      {status && <p className={cn('text-sm font-medium', status.tone)}>{status.text}</p>}
      {action.appealable &&
        (appealing ? (
          <AppealForm actionId={action.id} onDone={() => setAppealing(false)} />
        ) : (
          <Button variant="outline" className="justify-self-start" onClick={() => setAppealing(true)}>
            <Gavel aria-hidden /> Appeal this decision
          </Button>
        ))}
      {!action.appealable && !status && <p className="text-xs text-muted-foreground">The {APPEAL_DAYS} days to appeal have passed.</p>}
    </Card>
  );
}

const OUTCOME: Record<MyReport['outcome'], string> = {
  open: 'We’re looking into it',
  action_taken: 'We took action',
  no_action: 'No breach found',
};

/**
 * Settings → Safety (issue 30): the decisions about your account (rule, line, what happens now,
 * and the appeal), and your own reports with whether action was taken — never which.
 */
export default function SafetyPage() {
  usePageTitle('Safety and reports');
  const q = useQuery({ queryKey: mineKey, queryFn: () => api<{ actions: MemberAction[]; reports: MyReport[] }>('/api/moderation/mine') });
  return (
    <div className="mx-auto grid max-w-3xl gap-8 px-4 py-6 sm:px-6 md:py-10">
      <div>
        <Link to="/settings" className="text-sm font-medium text-muted-foreground hover:text-foreground">
          ← Settings
        </Link>
        <h1 className="mt-2 font-display text-3xl font-extrabold sm:text-4xl">Safety and reports</h1>
        <p className="mt-2 text-muted-foreground">
          Decisions our team made about your account, the reports you sent and the people you blocked.{' '}
          <Link to="/terms" className="underline">
            How moderation works (Terms, section 7)
          </Link>
          .
        </p>
      </div>
      {q.isPending ? (
        <Spinner label="Loading" />
      ) : q.isError ? (
        <LoadError title="Couldn’t load your safety page" error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <section aria-labelledby="decisions" className="grid gap-3">
            <h2 id="decisions" className="flex items-center gap-2 font-display text-xl font-bold">
              <ShieldCheck className="size-5" aria-hidden /> Decisions about your account
            </h2>
            {q.data.actions.length === 0 ? (
              <p className="text-sm text-muted-foreground">None. Thanks for keeping Fancy kind.</p>
            ) : (
              q.data.actions.map((a) => <ActionNotice key={a.id} action={a} />)
            )}
          </section>
          <section aria-labelledby="your-reports" className="grid gap-3">
            <h2 id="your-reports" className="flex items-center gap-2 font-display text-xl font-bold">
              <Flag className="size-5" aria-hidden /> Your reports
            </h2>
            {q.data.reports.length === 0 ? (
              <p className="text-sm text-muted-foreground">You haven’t reported anyone.</p>
            ) : (
              <ul className="grid gap-2">
                {q.data.reports.map((r) => (
                  <li key={r.id}>
                    <Card className="flex flex-wrap items-start justify-between gap-2 p-4">
                      <div className="min-w-0">
                        <p className="font-medium">{r.reason}</p>
                        {r.details && <p className="text-sm whitespace-pre-wrap text-muted-foreground">{r.details}</p>}
                        <p className="text-xs text-muted-foreground">{fmt(r.createdAt)}</p>
                      </div>
                      <span className="rounded-full bg-muted px-2.5 py-0.5 text-xs font-semibold">{OUTCOME[r.outcome]}</span>
                    </Card>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
      <BlockedMembers />
    </div>
  );
}
