import { Mail } from 'lucide-react';
import type { SettingsView, UpdateSettingsInput } from '../../../../shared/schemas/settings';
import { SettingsCard, SettingsSection } from '../components/section';
import { SwitchRow } from '../components/switch-row';

export function NotificationsSection({ settings, save }: { settings: SettingsView; save(input: UpdateSettingsInput): void }) {
  const p = settings.preferences;
  return (
    <SettingsSection
      id="notifications"
      icon={Mail}
      title="Email notifications"
      description={`What we email to ${settings.email}. Account and security emails always arrive.`}
    >
      <SettingsCard>
        <SwitchRow
          id="notify-match"
          label="New match"
          description="When someone you fancied fancies you back."
          checked={p.notifyMatch}
          onCheckedChange={(notifyMatch) => save({ notifyMatch })}
        />
        <SwitchRow
          id="notify-message"
          label="New message"
          description="When a match writes to you. At most one email per conversation per hour."
          checked={p.notifyMessage}
          onCheckedChange={(notifyMessage) => save({ notifyMessage })}
        />
        <SwitchRow
          id="notify-mixer"
          label="Mixer starting soon"
          description="15 minutes before a mixer you've joined begins."
          checked={p.notifyMixerSoon}
          onCheckedChange={(notifyMixerSoon) => save({ notifyMixerSoon })}
        />
        <SwitchRow
          id="notify-invitations"
          label="Mixer invitations"
          description="When we form a mixer around you and save you a seat. The invitation always shows in the app too."
          checked={p.notifyInvitations}
          onCheckedChange={(notifyInvitations) => save({ notifyInvitations })}
        />
        <SwitchRow
          id="notify-after-mixer"
          label="After a mixer"
          description="When a mixer you were in ends: who did you click with? Open for 48 hours."
          checked={p.notifyAfterMixer}
          onCheckedChange={(notifyAfterMixer) => save({ notifyAfterMixer })}
        />
      </SettingsCard>
    </SettingsSection>
  );
}
