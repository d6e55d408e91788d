import { useQuery } from '@tanstack/react-query';
import { Activity, CircleAlert, CircleCheck, Database, Mail, RotateCcw, Server } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { PublicLayout, PageHeader } from './public-layout';
import { usePageTitle } from '../../lib/use-page-title';

export const STATUS_POLL_MS = 15_000;

export interface HealthCheck {
  checkedAt: Date;
  server: boolean;
  database: boolean;
  /** Only for admins: how mail leaves is how the server is set up, which the public is not told (issue 32). */
  mail?: boolean;
  mailMode?: string;
}

/** Reads /api/health; never throws: an unreachable server is a result, not an error. */
export async function checkHealth(): Promise<HealthCheck> {
  const checkedAt = new Date();
  const down: HealthCheck = { checkedAt, server: false, database: false };
  let res: Response;
  try {
    res = await fetch('/api/health', { cache: 'no-store', headers: { accept: 'application/json' } });
  } catch {
    return down;
  }
  let body: { status?: unknown; db?: unknown; mail?: unknown } | null = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  // Anything but our own health answer (a proxy's error page, say) means the app server is not answering.
  if (!body || typeof body.db !== 'string') return down;
  const health: HealthCheck = { checkedAt, server: true, database: body.db === 'ok' };
  // Mail kept in the outbox is not delivered: for the admin who sees it, that is a service down.
  if (typeof body.mail === 'string') return { ...health, mail: body.mail !== 'outbox-only', mailMode: body.mail };
  return health;
}

const ROWS = [
  { key: 'server', icon: Server, name: 'Server', what: 'The Fancy app and its API' },
  { key: 'database', icon: Database, name: 'Database', what: 'Profiles, mixers, matches and messages' },
  { key: 'mail', icon: Mail, name: 'Mail', what: 'Verification, password and match emails' },
] as const;

function mailDetail(mode?: string) {
  if (mode === 'smtp') return 'Sending through our mail provider';
  if (mode === 'dev-mailbox') return 'Development mailbox: emails are kept on the server, not delivered';
  if (mode === 'outbox-only') return 'Kept in the outbox: SMTP_URL is not set, so nothing is delivered';
  return undefined;
}

const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export default function StatusPage() {
  usePageTitle('System status');
  const health = useQuery({
    queryKey: ['health'],
    queryFn: checkHealth,
    refetchInterval: STATUS_POLL_MS,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const data = health.data;
  const allUp = data?.server && data.database && data.mail !== false;
  // The mail row is for admins only (the server tells nobody else how mail leaves).
  const rows = ROWS.filter((row) => row.key !== 'mail' || data?.mail !== undefined);
  const summary = !data
    ? null
    : allUp
      ? { tone: 'ok', title: 'All systems are working', text: 'Fancy is running normally.' }
      : !data.server
        ? {
            tone: 'down',
            title: "We can't reach Fancy right now",
            text: 'The server is not answering. It may be restarting, or your connection may be down. We will keep checking.',
          }
        : { tone: 'down', title: 'Some systems are having trouble', text: 'Parts of Fancy may not work for now. We are on it.' };

  return (
    <PublicLayout>
      <PageHeader
        icon={Activity}
        eyebrow="Status"
        title="System status"
        lead="Whether Fancy's services are up, checked every 15 seconds."
        narrow
      />

      <div className="mx-auto max-w-3xl px-4 py-8 sm:px-5 md:py-12">
        <div aria-live="polite" aria-atomic="true">
          {!summary ? (
            <Card className="flex items-center justify-center p-10">
              <Spinner label="Checking Fancy's services" />
            </Card>
          ) : (
            <Card
              className={cn(
                'flex items-start gap-4 p-5 sm:p-6',
                summary.tone === 'ok' ? 'border-success/40 bg-success/10' : 'border-destructive/40 bg-destructive/5',
              )}
            >
              {summary.tone === 'ok' ? (
                <CircleCheck className="mt-0.5 size-7 shrink-0 text-success" aria-hidden />
              ) : (
                <CircleAlert className="mt-0.5 size-7 shrink-0 text-destructive" aria-hidden />
              )}
              <div>
                <h2 className="font-display text-xl font-extrabold sm:text-2xl">{summary.title}</h2>
                <p className="mt-1 text-muted-foreground">{summary.text}</p>
              </div>
            </Card>
          )}
        </div>

        <Card className="mt-6 overflow-hidden">
          <ul aria-label="Services" className="divide-y divide-border">
            {rows.map(({ key, icon: Icon, name, what }) => {
              const up = data ? data[key] : undefined;
              const detail = key === 'mail' ? mailDetail(data?.mailMode) : undefined;
              return (
                <li key={key} className="flex items-center gap-4 px-5 py-4 sm:px-6" data-testid={`status-${key}`}>
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-muted text-muted-foreground">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">{name}</p>
                    <p className="text-sm text-muted-foreground">{detail ?? what}</p>
                  </div>
                  {up === undefined ? (
                    <span className="text-sm text-muted-foreground">Checking…</span>
                  ) : (
                    <span
                      className={cn(
                        'inline-flex shrink-0 items-center gap-1.5 rounded-full border bg-card px-3 py-1 text-sm font-semibold',
                        up ? 'border-success/50 text-success' : 'border-destructive/50 text-destructive',
                      )}
                    >
                      {up ? <CircleCheck className="size-4" aria-hidden /> : <CircleAlert className="size-4" aria-hidden />}
                      {up ? 'Up' : 'Down'}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        </Card>

        <div className="mt-5 flex flex-col gap-3 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between">
          <p>
            {data ? (
              <>
                Last checked at <time dateTime={data.checkedAt.toISOString()}>{timeFormat.format(data.checkedAt)}</time>
              </>
            ) : (
              'Checking…'
            )}
          </p>
          <Button
            variant={data && !data.server ? 'default' : 'outline'}
            size="sm"
            aria-busy={health.isFetching}
            className={cn(data?.server !== false && 'text-foreground')}
            onClick={() => void health.refetch()}
          >
            <RotateCcw aria-hidden className={cn(health.isFetching && 'animate-spin')} />
            {data && !data.server ? 'Retry now' : 'Check now'}
          </Button>
        </div>
      </div>
    </PublicLayout>
  );
}
