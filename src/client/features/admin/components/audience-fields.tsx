import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { UsersRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  AUDIENCE_AGE_MAX,
  AUDIENCE_AGE_MIN,
  AUDIENCE_REGIONS,
  type Audience,
  ONLINE_LABEL,
  OPEN_POOL,
  PLAN_PRESETS,
  PLAN_SEATS_MAX,
  planSeats,
  SIDE_LABELS,
  type SeatPlan,
} from '../../../../shared/audience';
import { Field } from '../../../components/ui/input';
import { adminApi } from '../api';

const selectClass =
  'h-11 w-full rounded-xl border border-input bg-card px-3 text-base text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[invalid=true]:border-destructive md:text-sm';
const ages = Array.from({ length: AUDIENCE_AGE_MAX - AUDIENCE_AGE_MIN + 1 }, (_, i) => AUDIENCE_AGE_MIN + i);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The preset a plan was built from (its sides), or the first. */
const presetOf = (plan: SeatPlan) =>
  PLAN_PRESETS.find((p) => p.plan.length === plan.length && p.plan.every((s, i) => plan[i]?.side === s.side)) ?? PLAN_PRESETS[0];

/** The audience a mixer gets when its intent changes: Dating gets a seat plan, the others none. */
export function audienceForIntent(a: Audience, intent: string): Audience {
  if (intent === 'Dating') return a.seatPlan.length ? a : { ...a, seatPlan: PLAN_PRESETS[0].plan };
  return { ...a, seatPlan: [] };
}

/** Where, ages and (Dating) the seat plan, with a live count of the members each side reaches. */
export function AudienceFields({
  id,
  value,
  onChange,
  dating,
  error,
}: {
  id: string;
  value: Audience;
  onChange: (a: Audience) => void;
  dating: boolean;
  error?: string;
}) {
  const preset = presetOf(value.seatPlan);
  // The preview follows the form after a short pause.
  const [asked, setAsked] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(value), 300);
    return () => clearTimeout(timer);
  }, [value]);
  const preview = useQuery({
    queryKey: ['admin', 'audience-preview', asked],
    queryFn: () => adminApi.audiencePreview(asked),
    placeholderData: keepPreviousData,
    enabled: asked.ageMin <= asked.ageMax,
  });

  return (
    <fieldset className="grid gap-3 rounded-2xl border border-border p-4" data-testid="audience-fields">
      <legend className="px-1 text-sm font-semibold">Who it's for</legend>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id={`${id}-where`} label="Where">
          <select
            id={`${id}-where`}
            className={selectClass}
            value={value.region ?? ''}
            onChange={(e) => onChange({ ...value, region: e.target.value || null })}
          >
            <option value="">{ONLINE_LABEL}</option>
            {AUDIENCE_REGIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-age-min`} label="Youngest">
          <select
            id={`${id}-age-min`}
            className={selectClass}
            value={value.ageMin}
            aria-invalid={value.ageMin > value.ageMax}
            onChange={(e) => onChange({ ...value, ageMin: Number(e.target.value) })}
          >
            {ages.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </Field>
        <Field id={`${id}-age-max`} label="Oldest">
          <select
            id={`${id}-age-max`}
            className={selectClass}
            value={value.ageMax}
            aria-invalid={value.ageMin > value.ageMax}
            onChange={(e) => onChange({ ...value, ageMax: Number(e.target.value) })}
          >
            {ages.map((a) => (
              <option key={a} value={a}>
                {a === AUDIENCE_AGE_MAX ? `${a}+` : a}
              </option>
            ))}
          </select>
        </Field>
      </div>

      {dating && (
        <div className="grid gap-3">
          <Field
            id={`${id}-plan`}
            label="Seat plan"
            hint="Sides from gender identity and who people are into. The seats make the capacity."
          >
            <select
              id={`${id}-plan`}
              className={selectClass}
              value={preset.key}
              onChange={(e) => onChange({ ...value, seatPlan: PLAN_PRESETS.find((p) => p.key === e.target.value)?.plan ?? [] })}
            >
              {PLAN_PRESETS.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.label}
                </option>
              ))}
            </select>
          </Field>
          <div className="grid gap-3 sm:grid-cols-2">
            {value.seatPlan.map((s, i) => (
              <Field key={s.side} id={`${id}-seats-${s.side}`} label={`Seats: ${SIDE_LABELS[s.side]}`}>
                <select
                  id={`${id}-seats-${s.side}`}
                  className={selectClass}
                  value={s.seats}
                  onChange={(e) =>
                    onChange({ ...value, seatPlan: value.seatPlan.map((x, j) => (j === i ? { ...x, seats: Number(e.target.value) } : x)) })
                  }
                >
                  {Array.from({ length: PLAN_SEATS_MAX }, (_, k) => k + 1).map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </Field>
            ))}
          </div>
          <p className="text-sm">
            Capacity: <span className="font-semibold tabular-nums">{planSeats(value.seatPlan)} people</span>
          </p>
        </div>
      )}

      <div className="rounded-xl bg-muted/60 p-3 text-sm" aria-live="polite" data-testid="audience-preview">
        <p className="flex items-center gap-1.5 font-medium">
          <UsersRound className="size-4 text-primary" aria-hidden /> Members this reaches
        </p>
        {value.ageMin > value.ageMax ? (
          <p className="mt-1 text-muted-foreground">The youngest age is above the oldest.</p>
        ) : preview.isError ? (
          <p className="mt-1 text-muted-foreground">We couldn't count members just now.</p>
        ) : !preview.data ? (
          <p className="mt-1 text-muted-foreground">Counting…</p>
        ) : (
          <ul className="mt-1 grid gap-0.5">
            {preview.data.pools.map((p) => (
              <li key={p.key} className="flex flex-wrap justify-between gap-x-3">
                <span>{p.key === OPEN_POOL ? 'Everyone in the audience' : capital(SIDE_LABELS[p.key])}</span>
                <span className="tabular-nums text-muted-foreground">
                  <span className="font-semibold text-foreground">{p.eligible}</span> eligible ·{' '}
                  <span className="font-semibold text-foreground">{p.activeLately}</span> active in the last {preview.data.activeDays} days
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}
