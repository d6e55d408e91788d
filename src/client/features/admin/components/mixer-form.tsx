import { useQuery } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import {
  type AdminMixer,
  MIXER_CAPACITY_MAX,
  MIXER_CAPACITY_MIN,
  MIXER_DURATION_PRESETS,
  MIXER_TAGS_MAX,
  type MixerInput,
  mixerInputSchema,
} from '../../../../shared/schemas/admin';
import { type Audience, DEFAULT_AUDIENCE, PLAN_SEATS_MAX, planSeats } from '../../../../shared/audience';
import { MIXER_INTENTS, MIXER_THEMES, type MixerTheme } from '../../../../shared/mixer-facts';
import { Button } from '../../../components/ui/button';
import { describedBy as describedByOf, Field, Input, Textarea } from '../../../components/ui/input';
import { useToast } from '../../../components/ui/toast';
import { cn } from '../../../lib/cn';
import { adminApi, useAdminMutation } from '../api';
import { fromLocalInput, toLocalInput } from '../format';
import { AudienceFields, audienceForIntent } from './audience-fields';
import { AdminDialog, DialogFooter, showSaveError } from './dialog';

/** Swatches of the six mixer themes (the member pages draw the full bands). */
export const THEME_SWATCH: Record<MixerTheme, { label: string; className: string }> = {
  sunset: { label: 'Sunset', className: 'bg-linear-to-br from-orange-500 via-rose-600 to-pink-700' },
  ocean: { label: 'Ocean', className: 'bg-linear-to-br from-sky-600 via-blue-700 to-indigo-800' },
  forest: { label: 'Forest', className: 'bg-linear-to-br from-emerald-600 via-green-700 to-teal-800' },
  berry: { label: 'Berry', className: 'bg-linear-to-br from-fuchsia-600 via-purple-700 to-violet-800' },
  citrus: { label: 'Citrus', className: 'bg-linear-to-br from-yellow-300 via-amber-300 to-lime-400 text-slate-900' },
  midnight: { label: 'Midnight', className: 'bg-linear-to-br from-indigo-900 via-slate-900 to-violet-950' },
};

const selectClass =
  'h-11 w-full rounded-xl border border-input bg-card px-3 text-base text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive md:text-sm';

interface Draft {
  title: string;
  topic: string;
  description: string;
  theme: MixerTheme;
  tags: string[];
  intent: (typeof MIXER_INTENTS)[number];
  start: string;
  durationMinutes: number;
  maxParticipants: number;
  icebreaker: string;
  audience: Audience;
  verifiedOnly: boolean;
}

function nextHour(): string {
  const d = new Date(Date.now() + 24 * 3_600_000);
  d.setMinutes(0, 0, 0);
  d.setHours(19);
  return toLocalInput(d.toISOString());
}

const draftOf = (m: AdminMixer | null): Draft =>
  m
    ? {
        title: m.title,
        topic: m.topic,
        description: m.description,
        theme: m.theme,
        tags: m.tags,
        intent: m.intent,
        start: toLocalInput(m.startsAt),
        durationMinutes: m.durationMinutes,
        maxParticipants: m.maxParticipants,
        icebreaker: m.icebreaker,
        audience: m.audience,
        verifiedOnly: m.verifiedOnly,
      }
    : {
        title: '',
        topic: '',
        description: '',
        theme: 'sunset',
        tags: [],
        intent: 'Friends',
        start: nextHour(),
        durationMinutes: 60,
        maxParticipants: 8,
        icebreaker: '',
        audience: DEFAULT_AUDIENCE,
        verifiedOnly: false,
      };

function TagPicker({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: string[];
  onChange: (tags: string[]) => void;
  invalid: boolean;
}) {
  const catalogue = useQuery({ queryKey: ['admin', 'interests'], queryFn: adminApi.interests, staleTime: 60_000 });
  const [search, setSearch] = useState('');
  const matches = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return [];
    return (catalogue.data?.interests ?? []).filter((i) => i.name.toLowerCase().includes(q) && !value.includes(i.name)).slice(0, 8);
  }, [catalogue.data, search, value]);
  const full = value.length >= MIXER_TAGS_MAX;
  const add = (name: string) => {
    if (full || value.includes(name)) return;
    onChange([...value, name]);
    setSearch('');
  };
  return (
    <div className="grid gap-2">
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Chosen tags">
          {value.map((t) => (
            <li key={t}>
              <span className="inline-flex items-center gap-1 rounded-full bg-accent py-1 pl-3 pr-1 text-sm font-medium text-accent-foreground">
                {t}
                <button
                  type="button"
                  onClick={() => onChange(value.filter((v) => v !== t))}
                  className="flex size-6 items-center justify-center rounded-full hover:bg-primary/15"
                  aria-label={`Remove tag ${t}`}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <Input
        id={id}
        value={search}
        disabled={full}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint`}
        placeholder={full ? `Up to ${MIXER_TAGS_MAX} tags` : 'Search the interest list…'}
        autoComplete="off"
        onChange={(e) => setSearch(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (matches[0]) add(matches[0].name);
          }
        }}
      />
      {matches.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Matching interests">
          {matches.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                onClick={() => add(m.name)}
                className="rounded-full border border-border bg-card px-3 py-1 text-sm hover:border-primary hover:bg-accent"
              >
                + {m.name} <span className="text-xs text-muted-foreground">· {m.category}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {search.trim() && matches.length === 0 && catalogue.isSuccess && (
        <p className="text-xs text-muted-foreground">No interest matches “{search.trim()}”. Tags come from the interest list.</p>
      )}
    </div>
  );
}

/** Create or edit a mixer. The shared schema checks it here and again on the server. */
export function MixerFormDialog({ open, mixer, onClose }: { open: boolean; mixer: AdminMixer | null; onClose: () => void }) {
  const id = useId();
  const toast = useToast();
  const [draft, setDraft] = useState<Draft>(() => draftOf(mixer));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [openedFor, setOpenedFor] = useState<string | null>(null);
  const key = open ? (mixer?.id ?? 'new') : null;
  if (key !== openedFor) {
    setOpenedFor(key);
    if (key) {
      setDraft(draftOf(mixer));
      setErrors({});
    }
  }
  const live = mixer?.status === 'live';
  const save = useAdminMutation(
    (input: MixerInput) => (mixer ? adminApi.updateMixer(mixer.id, input) : adminApi.createMixer(input)),
    [['mixers']],
  );
  const ERROR_KEY: Partial<Record<keyof Draft, string>> = { start: 'startsAt' };
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => {
    setDraft((d) => ({ ...d, [k]: v }));
    const errorKey = ERROR_KEY[k] ?? k;
    setErrors((e) => {
      if (!(errorKey in e)) return e;
      const { [errorKey]: _, ...rest } = e;
      return rest;
    });
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const input: MixerInput = {
      title: draft.title,
      topic: draft.topic,
      description: draft.description,
      theme: draft.theme,
      tags: draft.tags,
      intent: draft.intent,
      startsAt: live && mixer ? mixer.startsAt : fromLocalInput(draft.start),
      durationMinutes: draft.durationMinutes,
      maxParticipants: draft.intent === 'Dating' ? planSeats(draft.audience.seatPlan) : draft.maxParticipants,
      icebreaker: draft.icebreaker,
      audience: draft.audience,
      verifiedOnly: draft.verifiedOnly,
    };
    const parsed = mixerInputSchema.safeParse(input);
    const next: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
    // The server names audience problems by their field path.
    if (next.maxParticipants && draft.intent === 'Dating') next.audience ??= next.maxParticipants;
    if (!mixer && input.startsAt && new Date(input.startsAt).getTime() < Date.now()) next.startsAt ??= 'Pick a start time in the future';
    setErrors(next);
    if (Object.keys(next).length) return;
    try {
      const saved = await save.mutateAsync(input);
      toast({
        title: mixer ? 'Mixer updated' : 'Mixer created',
        description: mixer
          ? `"${saved.title}" is saved. Members see the changes at once.`
          : `"${saved.title}" is scheduled and members can join it now.`,
      });
      onClose();
    } catch (err) {
      showSaveError(err, setErrors, toast, 'Could not save the mixer');
    }
  };

  const err = (k: string) => errors[k];
  const describedBy = (k: string, hint = false) => describedByOf(`${id}-${k}`, errors[k], hint);
  const durations: number[] = [...MIXER_DURATION_PRESETS, 180, 240];
  if (!durations.includes(draft.durationMinutes)) durations.push(draft.durationMinutes);

  return (
    <AdminDialog
      open={open}
      onOpenChange={(o) => !o && !save.isPending && onClose()}
      title={mixer ? 'Edit mixer' : 'New mixer'}
      description={
        mixer
          ? live
            ? 'This mixer is live: its start time stays, everything else can change.'
            : 'Joined members are told by email if the time changes.'
          : 'It starts and ends by itself at the times you set.'
      }
      wide
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id={`${id}-title`} label="Title" error={err('title')}>
            <Input
              id={`${id}-title`}
              value={draft.title}
              maxLength={80}
              aria-invalid={Boolean(err('title'))}
              aria-describedby={describedBy('title')}
              onChange={(e) => set('title', e.target.value)}
            />
          </Field>
          <Field id={`${id}-topic`} label="Topic" error={err('topic')}>
            <Input
              id={`${id}-topic`}
              value={draft.topic}
              maxLength={40}
              placeholder="e.g. Board games"
              aria-invalid={Boolean(err('topic'))}
              aria-describedby={describedBy('topic')}
              onChange={(e) => set('topic', e.target.value)}
            />
          </Field>
        </div>
        <Field id={`${id}-description`} label="Description" error={err('description')}>
          <Textarea
            id={`${id}-description`}
            value={draft.description}
            maxLength={600}
            className="min-h-20"
            aria-invalid={Boolean(err('description'))}
            aria-describedby={describedBy('description')}
            onChange={(e) => set('description', e.target.value)}
          />
        </Field>

        <fieldset className="grid gap-2">
          <legend className="mb-1.5 text-sm font-medium">Theme</legend>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {MIXER_THEMES.map((t) => (
              <label
                key={t}
                className={cn(
                  'relative flex cursor-pointer flex-col items-center gap-1.5 rounded-xl border border-border p-2 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
                  draft.theme === t && 'border-primary bg-accent',
                )}
              >
                <input
                  type="radio"
                  name={`${id}-theme`}
                  value={t}
                  checked={draft.theme === t}
                  onChange={() => set('theme', t)}
                  className="sr-only"
                />
                <span className={cn('flex h-8 w-full items-center justify-center rounded-lg text-white', THEME_SWATCH[t].className)}>
                  {draft.theme === t && <Check className="size-4" aria-hidden />}
                </span>
                {THEME_SWATCH[t].label}
              </label>
            ))}
          </div>
        </fieldset>

        <Field
          id={`${id}-tags`}
          label="Tags"
          error={err('tags')}
          hint={`Up to ${MIXER_TAGS_MAX} interests from the interest list; members who share them see the mixer first.`}
        >
          <TagPicker id={`${id}-tags`} value={draft.tags} onChange={(tags) => set('tags', tags)} invalid={Boolean(err('tags'))} />
        </Field>

        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id={`${id}-start`}
            label="Starts"
            error={err('startsAt')}
            hint={live ? 'Live mixers keep their start time.' : 'Your local time.'}
          >
            <Input
              id={`${id}-start`}
              type="datetime-local"
              value={draft.start}
              disabled={live}
              aria-invalid={Boolean(err('startsAt'))}
              aria-describedby={describedBy('startsAt', true)}
              onChange={(e) => set('start', e.target.value)}
            />
          </Field>
          <Field id={`${id}-duration`} label="Duration" error={err('durationMinutes')}>
            <select
              id={`${id}-duration`}
              className={selectClass}
              value={draft.durationMinutes}
              aria-invalid={Boolean(err('durationMinutes'))}
              aria-describedby={describedBy('durationMinutes')}
              onChange={(e) => set('durationMinutes', Number(e.target.value))}
            >
              {durations.map((d) => (
                <option key={d} value={d}>
                  {d < 60
                    ? `${d} minutes`
                    : d % 60 === 0
                      ? `${d / 60} hour${d === 60 ? '' : 's'}`
                      : `${Math.floor(d / 60)} h ${d % 60} min`}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id={`${id}-capacity`}
            label="Capacity"
            error={err('maxParticipants')}
            hint={draft.intent === 'Dating' ? 'Set by the seat plan below.' : undefined}
          >
            <select
              id={`${id}-capacity`}
              className={selectClass}
              value={draft.intent === 'Dating' ? planSeats(draft.audience.seatPlan) : draft.maxParticipants}
              disabled={draft.intent === 'Dating'}
              aria-invalid={Boolean(err('maxParticipants'))}
              aria-describedby={describedBy('maxParticipants')}
              onChange={(e) => set('maxParticipants', Number(e.target.value))}
            >
              {Array.from({ length: PLAN_SEATS_MAX }, (_, i) => i + 1)
                .filter((n) => n >= MIXER_CAPACITY_MIN || draft.intent === 'Dating')
                .filter((n) => n <= MIXER_CAPACITY_MAX)
                .map((n) => (
                  <option key={n} value={n}>
                    {n} people
                  </option>
                ))}
            </select>
          </Field>
          <Field id={`${id}-intent`} label="For" error={err('intent')}>
            <select
              id={`${id}-intent`}
              className={selectClass}
              value={draft.intent}
              onChange={(e) => {
                const intent = e.target.value as Draft['intent'];
                set('intent', intent);
                set('audience', audienceForIntent(draft.audience, intent));
              }}
            >
              {MIXER_INTENTS.map((i) => (
                <option key={i} value={i}>
                  {i}
                </option>
              ))}
            </select>
          </Field>
        </div>

        <AudienceFields
          id={`${id}-audience`}
          value={draft.audience}
          onChange={(a) => set('audience', a)}
          dating={draft.intent === 'Dating'}
          error={err('audience') ?? err('audience.seatPlan')}
        />

        <label className="flex items-start gap-3 text-sm" htmlFor={`${id}-verified-only`}>
          <input
            id={`${id}-verified-only`}
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            checked={draft.verifiedOnly}
            onChange={(e) => set('verifiedOnly', e.target.checked)}
          />
          <span>
            <span className="font-medium">Verified members only</span>
            <span className="block text-muted-foreground">Members without the verified badge see why and a link to get verified.</span>
          </span>
        </label>

        <Field
          id={`${id}-icebreaker`}
          label="Icebreaker (optional)"
          error={err('icebreaker')}
          hint="Posted in the chat when the mixer starts. Leave empty for the standard question about the topic."
        >
          <Textarea
            id={`${id}-icebreaker`}
            value={draft.icebreaker}
            maxLength={300}
            className="min-h-16"
            aria-invalid={Boolean(err('icebreaker'))}
            aria-describedby={describedBy('icebreaker', true)}
            onChange={(e) => set('icebreaker', e.target.value)}
          />
        </Field>

        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : mixer ? 'Save changes' : 'Create mixer'}
          </Button>
        </DialogFooter>
      </form>
    </AdminDialog>
  );
}
