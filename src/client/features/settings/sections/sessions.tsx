import { Laptop, LogOut, Smartphone, Tablet } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useToast } from '../../../components/ui/toast';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../components/form-errors';
import { CardBlock } from '../components/section';
import { formatDate, timeAgo } from '../components/time';
import { LoadError } from '../../../components/ui/load-error';

const iconFor = (device: string) => (/iPhone|Android/.test(device) ? Smartphone : /iPad/.test(device) ? Tablet : Laptop);

export function SessionsBlock() {
  const toast = useToast();
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const [confirmAll, setConfirmAll] = useState(false);
  const others = sessions.data?.filter((s) => !s.current) ?? [];

  return (
    <CardBlock
      title="Where you're signed in"
      titleId="sessions-title"
      description="Don't recognise a device? Sign it out, then change your password."
      action={
        <Button variant="outline" size="sm" disabled={others.length === 0} onClick={() => setConfirmAll(true)}>
          Sign out everywhere else
        </Button>
      }
    >
      {sessions.isPending ? (
        <Spinner label="Loading your devices" />
      ) : sessions.isError ? (
        <LoadError bare small title="We couldn't load your devices just now." onRetry={sessions.refetch} />
      ) : (
        <ul aria-labelledby="sessions-title" className="grid gap-2">
          {sessions.data.map((s) => {
            const Icon = iconFor(s.device);
            return (
              <li key={s.id} className="flex items-center gap-3 rounded-xl border border-border p-3">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-muted text-muted-foreground">
                  <Icon className="size-5" aria-hidden />
                </span>
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-x-2 text-sm font-medium">
                    {s.device}
                    {s.current && (
                      <span className="rounded-full border border-success/50 px-2 py-0.5 text-xs font-semibold text-success">
                        This device
                      </span>
                    )}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    <span className="block sm:inline">{s.current ? 'Active now' : `Last active ${timeAgo(s.lastActiveAt)}`}</span>
                    <span aria-hidden className="hidden sm:inline">
                      {' · '}
                    </span>
                    <span className="block sm:inline">Signed in {formatDate(s.createdAt)}</span>
                  </p>
                </div>
                {!s.current && (
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={revoke.isPending && revoke.variables === s.id}
                    aria-label={`Sign out ${s.device}, last active ${timeAgo(s.lastActiveAt)}`}
                    onClick={() =>
                      revoke.mutate(s.id, {
                        onSuccess: () => toast({ title: 'Signed out', description: `${s.device} is no longer signed in.` }),
                        onError: (err) =>
                          toast({ title: "Couldn't sign that device out", description: errorMessage(err), variant: 'destructive' }),
                      })
                    }
                  >
                    {/* Only the icon on a phone, where the word would squeeze the device's details into a column. */}
                    <LogOut className="sm:hidden" aria-hidden />
                    <span className="hidden sm:inline">Sign out</span>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={confirmAll}
        onOpenChange={setConfirmAll}
        title="Sign out everywhere else?"
        description={
          <p>
            {others.length === 1 ? 'Your other device' : `Your ${others.length} other devices`} will need to log in again. You stay signed
            in here.
          </p>
        }
        confirmLabel="Sign out others"
        busyLabel="Signing out…"
        busy={revokeOthers.isPending}
        onConfirm={() =>
          revokeOthers.mutate(undefined, {
            onSuccess: () => {
              setConfirmAll(false);
              toast({ title: 'Signed out everywhere else', description: 'Only this device is signed in now.' });
            },
            onError: (err) =>
              toast({ title: "Couldn't sign the other devices out", description: errorMessage(err), variant: 'destructive' }),
          })
        }
      />
    </CardBlock>
  );
}
