import { Lock } from 'lucide-react';
import { RadioGroup } from 'radix-ui';
import type { ProfileVisibility, SettingsView, UpdateSettingsInput } from '../../../../shared/schemas/settings';
import { cn } from '../../../lib/cn';
import { SettingsCard, SettingsSection } from '../components/section';
import { SwitchRow } from '../components/switch-row';

const VISIBILITY: { value: ProfileVisibility; label: string; hint: string }[] = [
  {
    value: 'shared_mixer',
    label: "Members I've shared a mixer with",
    hint: 'Only people who were in a mixer with you can open your full profile.',
  },
  { value: 'all', label: 'All Fancy members', hint: 'Any signed-in member can open your full profile.' },
];

export function PrivacySection({ settings, save }: { settings: SettingsView; save(input: UpdateSettingsInput): void }) {
  return (
    <SettingsSection id="privacy" icon={Lock} title="Privacy" description="Decide what other members can see about you.">
      <SettingsCard>
        <SwitchRow
          id="share-city"
          label="Show my city to others"
          description="When this is off, your city is hidden on your profile card, in mixers, matches and messages. You still see it yourself."
          checked={settings.shareCityRegion}
          onCheckedChange={(shareCityRegion) => save({ shareCityRegion })}
        />
        <SwitchRow
          id="only-verified"
          label="Place me only with verified members"
          description="For you and mixer invitations then only include mixers where everyone has the verified badge. You may see fewer mixers."
          checked={settings.preferences.onlyVerified}
          onCheckedChange={(onlyVerified) => save({ onlyVerified })}
        />
        <div className="p-4 sm:p-5">
          <p id="visibility-label" className="font-medium">
            Who can see my profile
          </p>
          <p className="mt-0.5 text-sm text-muted-foreground">Your first name and photo always show in the mixers you join.</p>
          <RadioGroup.Root
            aria-labelledby="visibility-label"
            value={settings.preferences.profileVisibility}
            onValueChange={(v) => save({ profileVisibility: v as ProfileVisibility })}
            className="mt-3 grid gap-2"
          >
            {VISIBILITY.map(({ value, label, hint }) => (
              <label
                key={value}
                htmlFor={`visibility-${value}`}
                className={cn(
                  'flex cursor-pointer items-start gap-3 rounded-xl border border-border p-3 transition-colors hover:bg-muted',
                  'has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-accent/60',
                )}
              >
                <RadioGroup.Item
                  id={`visibility-${value}`}
                  value={value}
                  aria-describedby={`visibility-${value}-hint`}
                  className="mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full border-2 border-input bg-card focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=checked]:border-primary"
                >
                  <RadioGroup.Indicator className="block size-2.5 rounded-full bg-primary" />
                </RadioGroup.Item>
                <span className="min-w-0">
                  <span className="block text-sm font-medium">{label}</span>
                  <span id={`visibility-${value}-hint`} className="block text-sm text-muted-foreground">
                    {hint}
                  </span>
                </span>
              </label>
            ))}
          </RadioGroup.Root>
        </div>
      </SettingsCard>
    </SettingsSection>
  );
}
