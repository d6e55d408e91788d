import { Monitor, Moon, Palette, Sun } from 'lucide-react';
import { RadioGroup } from 'radix-ui';
import { cn } from '../../../lib/cn';
import { type ThemeChoice, useTheme } from '../../../lib/theme';
import { SettingsCard, SettingsSection } from '../components/section';

const THEMES: { value: ThemeChoice; label: string; hint: string; icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', hint: 'Bright and airy', icon: Sun },
  { value: 'dark', label: 'Dark', hint: 'Easy on the eyes at night', icon: Moon },
  { value: 'system', label: 'System', hint: 'Follows your device', icon: Monitor },
];

export function AppearanceSection() {
  const { theme, setTheme } = useTheme();
  return (
    <SettingsSection id="appearance" icon={Palette} title="Appearance" description="Choose how Fancy looks on this device.">
      <SettingsCard>
        <div className="p-4 sm:p-5">
          <p id="theme-label" className="mb-3 font-medium">
            Theme
          </p>
          <RadioGroup.Root
            aria-labelledby="theme-label"
            value={theme}
            onValueChange={(v) => setTheme(v as ThemeChoice)}
            className="grid grid-cols-3 gap-2 sm:gap-3"
          >
            {THEMES.map(({ value, label, hint, icon: Icon }) => (
              <RadioGroup.Item
                key={value}
                value={value}
                aria-label={label}
                className={cn(
                  'flex cursor-pointer flex-col items-center gap-1.5 rounded-xl border-2 border-border bg-card px-2 py-3 text-center transition-colors hover:bg-muted',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  'data-[state=checked]:border-primary data-[state=checked]:bg-accent data-[state=checked]:text-accent-foreground',
                )}
              >
                <Icon className="size-5" aria-hidden />
                <span className="text-sm font-semibold">{label}</span>
                <span className="hidden text-xs text-muted-foreground sm:block">{hint}</span>
              </RadioGroup.Item>
            ))}
          </RadioGroup.Root>
        </div>
      </SettingsCard>
    </SettingsSection>
  );
}
