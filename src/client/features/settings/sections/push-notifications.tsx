import { BellRing, Moon, Smartphone, Trash2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { PUSH_CATEGORIES, PUSH_CATEGORY_LABELS, type PushDevice, type PushSettingsInput } from '../../../../shared/schemas/push';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../components/form-errors';
import { CardBlock, SettingsCard, SettingsSection } from '../components/section';
import { SwitchRow } from '../components/switch-row';
import { formatDate } from '../components/time';
import {
  currentSubscription,
  disablePush,
  enablePush,
  pushSupport,
  usePushDevices,
  useRemovePushDevice,
  useUpdatePushDevice,
} from '../push';

const toTime = (minutes: number | null) =>
  minutes == null ? '' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const fromTime = (value: string) => {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** Settings → Notifications, push part: this device on/off and its choices, and every device to remove. */
export function PushNotificationsSection() {
  const toast = useToast();
  const [support] = useState(pushSupport);
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const devices = usePushDevices(endpoint);
  const update = useUpdatePushDevice();
  const remove = useRemovePushDevice();

  useEffect(() => {
    let live = true;
    currentSubscription()
      .then((sub) => live && setEndpoint(sub?.endpoint ?? null))
      .catch(() => live && setEndpoint(null));
    return () => {
      live = false;
    };
  }, []);

  const fail = (title: string) => (err: unknown) =>
    toast({ title, description: err instanceof Error ? errorMessage(err) : String(err), variant: 'destructive' });

  const turnOn = async () => {
    setBusy(true);
    try {
      const { device, endpoint: subscribed } = await enablePush();
      setEndpoint(subscribed);
      toast({ title: 'Notifications on for this device', description: `${device.label}: discreet by default.` });
    } catch (err) {
      fail("Couldn't turn notifications on")(err);
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async () => {
    setBusy(true);
    try {
      await disablePush();
      setEndpoint(null);
      await devices.refetch();
      toast({ title: 'Notifications off for this device' });
    } catch (err) {
      fail("Couldn't turn notifications off")(err);
    } finally {
      setBusy(false);
    }
  };
  const save = (device: PushDevice, input: PushSettingsInput) =>
    update.mutate({ id: device.id, input }, { onError: fail("Couldn't save that choice") });

  const list = devices.data ?? [];
  const here = list.find((d) => d.current);
  const others = list.filter((d) => !d.current);

  return (
    <SettingsSection
      id="push"
      icon={BellRing}
      title="Push notifications"
      description="On this device's lock screen, even with Fancy closed. Discreet unless you choose otherwise."
    >
      <SettingsCard>
        {support === 'unsupported' ? (
          <CardBlock title="This device" description="This browser can't show notifications from websites. Fancy will keep emailing you." />
        ) : support === 'ios-install' ? (
          <CardBlock
            title="This device"
            description="On iPhone and iPad, add Fancy to your Home Screen first (Share, then Add to Home Screen), open it from there and turn notifications on here."
          />
        ) : support === 'denied' ? (
          <CardBlock
            title="This device"
            description="Notifications are blocked for Fancy in this browser. Allow them in the site settings (the icon beside the address), then come back."
          />
        ) : endpoint === undefined || devices.isPending ? (
          <div className="p-4 sm:p-5" aria-busy="true">
            <span className="sr-only" role="status">
              Checking this device
            </span>
            <div className="h-12 animate-pulse rounded-xl bg-muted" />
          </div>
        ) : devices.isError ? (
          <CardBlock
            title="This device"
            description={errorMessage(devices.error)}
            action={
              <Button variant="outline" size="sm" onClick={() => void devices.refetch()}>
                Try again
              </Button>
            }
          />
        ) : !here ? (
          <CardBlock
            title="This device"
            description="Hear about mixers starting, invitations, matches and messages when Fancy isn't open."
            action={
              <Button size="sm" onClick={() => void turnOn()} disabled={busy}>
                <BellRing aria-hidden />
                Turn on
              </Button>
            }
          />
        ) : (
          <>
            <CardBlock
              title="This device"
              description={
                <span data-testid="push-this-device">
                  {here.label} · on since {formatDate(here.createdAt)}
                </span>
              }
              action={
                <Button variant="outline" size="sm" onClick={() => void turnOff()} disabled={busy}>
                  Turn off
                </Button>
              }
            />
            {PUSH_CATEGORIES.map((c) => (
              <SwitchRow
                key={c}
                id={`push-${c}`}
                label={PUSH_CATEGORY_LABELS[c].title}
                description={PUSH_CATEGORY_LABELS[c].description}
                checked={here.categories[c]}
                onCheckedChange={(on) => save(here, { categories: { [c]: on } })}
              />
            ))}
            <SwitchRow
              id="push-previews"
              label="Show names and previews"
              description={
                here.showPreviews
                  ? 'Notifications say who wrote and show the first words.'
                  : 'Off: the lock screen only says "Fancy: You have a new message", never who or what.'
              }
              checked={here.showPreviews}
              onCheckedChange={(showPreviews) => save(here, { showPreviews })}
            />
            <QuietHours device={here} save={(input) => save(here, input)} />
          </>
        )}
      </SettingsCard>

      {(others.length > 0 || here) && (
        <SettingsCard>
          <CardBlock title="Devices with notifications" description="Remove any you no longer use." />
          {others.length === 0 ? (
            <p className="p-4 text-sm text-muted-foreground sm:p-5">
              No other devices. Turn notifications on from your phone to see it here.
            </p>
          ) : (
            <ul className="divide-y divide-border">
              {others.map((d) => (
                <li key={d.id} className="flex items-center justify-between gap-3 p-4 sm:px-5">
                  <span className="flex min-w-0 items-center gap-3">
                    <Smartphone className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                    <span className="min-w-0">
                      <span className="block truncate text-sm font-medium">{d.label}</span>
                      <span className="block text-xs text-muted-foreground">Added {formatDate(d.createdAt)}</span>
                    </span>
                  </span>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => remove.mutate(d.id, { onError: fail("Couldn't remove that device") })}
                    aria-label={`Remove ${d.label}`}
                  >
                    <Trash2 aria-hidden />
                    Remove
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </SettingsCard>
      )}
    </SettingsSection>
  );
}

function QuietHours({ device, save }: { device: PushDevice; save(input: PushSettingsInput): void }) {
  const id = useId();
  const on = device.quietStart != null && device.quietEnd != null;
  const [start, setStart] = useState(toTime(device.quietStart) || '22:00');
  const [end, setEnd] = useState(toTime(device.quietEnd) || '07:00');
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const commit = (s: string, e: string) => {
    const quietStart = fromTime(s);
    const quietEnd = fromTime(e);
    if (quietStart != null && quietEnd != null) save({ quietStart, quietEnd, timeZone });
  };
  return (
    <div>
      <SwitchRow
        id="push-quiet"
        label="Quiet hours"
        description={
          on
            ? `Nothing between ${toTime(device.quietStart)} and ${toTime(device.quietEnd)} (${device.timeZone}).`
            : 'Pause notifications overnight.'
        }
        checked={on}
        onCheckedChange={(v) => (v ? commit(start, end) : save({ quietStart: null, quietEnd: null }))}
      />
      {on && (
        <div className="flex flex-wrap items-end gap-3 px-4 pb-4 sm:px-5 sm:pb-5">
          <Moon className="mb-2.5 hidden size-4 text-muted-foreground sm:block" aria-hidden />
          {[
            { key: 'from', label: 'From', value: start, set: setStart },
            { key: 'to', label: 'Until', value: end, set: setEnd },
          ].map((f) => (
            <label key={f.key} className="grid gap-1 text-sm" htmlFor={`${id}-${f.key}`}>
              {f.label}
              <Input
                id={`${id}-${f.key}`}
                type="time"
                className="w-36"
                value={f.value}
                onChange={(e) => f.set(e.target.value)}
                onBlur={() => commit(start, end)}
              />
            </label>
          ))}
        </div>
      )}
    </div>
  );
}
