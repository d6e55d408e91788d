import { Monitor, Moon, Sun } from 'lucide-react';
import { cn } from '../../lib/cn';
import { type ThemeChoice, useTheme } from '../../lib/theme';

const OPTIONS: { value: ThemeChoice; label: string; icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'system', label: 'System', icon: Monitor },
];

export function ThemeSwitch({ className, showLabels = false }: { className?: string; showLabels?: boolean }) {
  const { theme, setTheme } = useTheme();
  return (
    <div role="radiogroup" aria-label="Theme" className={cn('inline-flex rounded-full border border-border bg-muted/60 p-0.5', className)}>
      {OPTIONS.map(({ value, label, icon: Icon }) => (
        // biome-ignore lint/a11y/useSemanticElements: a segmented control of buttons
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={theme === value}
          aria-label={showLabels ? undefined : label}
          onClick={() => setTheme(value)}
          className={cn(
            'flex h-8 items-center gap-1.5 rounded-full px-2.5 text-xs font-medium text-muted-foreground transition-colors',
            theme === value && 'bg-card text-foreground shadow-sm',
          )}
        >
          <Icon className="size-3.5" aria-hidden />
          {showLabels && label}
        </button>
      ))}
    </div>
  );
}
