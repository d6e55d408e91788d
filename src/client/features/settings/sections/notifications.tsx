import { Mail } from 'lucide-react';
import type { SettingsView, UpdateSettingsInput } from '../../../../shared/schemas/settings';
import { SettingsCard, SettingsSection } from '../components/section';
import { SwitchRow } from '../components/switch-row';

type EmailPreference = 'notifyMatch' | 'notifyMessage' | 'notifyMixerSoon' | 'notifyInvitations' | 'notifyAfterMixer' | 'notifyReports';

/** The emails a member can turn off, in the order they show. */
const EMAILS: { key: EmailPreference; id: string; label: string; description: string }[] = [
  { key: 'notifyMatch', id: 'notify-match', label: 'New match', description: 'When someone you fancied fancies you back.' },
  {
    key: 'notifyMessage',
    id: 'notify-message',
    label: 'New message',
    description: 'When a match writes to you. At most one email per conversation per hour.',
  },
  {
    key: 'notifyMixerSoon',
    id: 'notify-mixer',
    label: 'Mixer starting soon',
    description: "15 minutes before a mixer you've joined begins.",
  },
  {
    key: 'notifyInvitations',
    id: 'notify-invitations',
    label: 'Mixer invitations',
    description: 'When we form a mixer around you and save you a seat. The invitation always shows in the app too.',
  },
  {
    key: 'notifyAfterMixer',
    id: 'notify-after-mixer',
    label: 'After a mixer',
    description: 'When a mixer you were in ends: who did you click with? Open for 48 hours.',
  },
  {
    key: 'notifyReports',
    id: 'notify-reports',
    label: 'Outcome of my reports',
    description: 'When we have looked into a report you made: whether we took action. We always tell you in the app too.',
  },
];

export function NotificationsSection({ settings, save }: { settings: SettingsView; save(input: UpdateSettingsInput): void }) {
  return (
    <SettingsSection
      id="notifications"
      icon={Mail}
      title="Email notifications"
      description={
        <>
          What we email to <span className="inline-block max-w-full">{settings.email}</span>. Account and security emails always arrive.
        </>
      }
    >
      <SettingsCard>
        {EMAILS.map(({ key, ...row }) => (
          <SwitchRow
            key={key}
            {...row}
            checked={settings.preferences[key]}
            onCheckedChange={(on) => save({ [key]: on } as UpdateSettingsInput)}
          />
        ))}
      </SettingsCard>
    </SettingsSection>
  );
}
