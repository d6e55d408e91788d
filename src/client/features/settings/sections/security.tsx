import { ShieldCheck } from 'lucide-react';
import type { SettingsView } from '../../../../shared/schemas/settings';
import { SettingsCard, SettingsSection } from '../components/section';
import { EmailBlock, PasswordBlock } from './account-security';
import { SessionsBlock } from './sessions';
import { TwoFactorBlock } from './two-factor';

/** Settings → Security: e-mail, password, two-step sign-in and sessions (loaded after the first paint, decision 018). */
export function SecuritySection({ settings }: { settings: SettingsView }) {
  return (
    <SettingsSection id="security" icon={ShieldCheck} title="Security" description="Keep your account yours.">
      <SettingsCard>
        <EmailBlock email={settings.email} />
        <PasswordBlock />
      </SettingsCard>
      <SettingsCard>
        <TwoFactorBlock enabled={settings.twoFactorEnabled} />
      </SettingsCard>
      <SettingsCard>
        <SessionsBlock />
      </SettingsCard>
    </SettingsSection>
  );
}
