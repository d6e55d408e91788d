import { Cherry, Citrus, type LucideIcon, MoonStar, Sunset, Trees, Waves } from 'lucide-react';
import type { MixerTheme } from '../../../shared/mixer-facts';

export interface ThemeStyle {
  /** The coloured band of a card and the detail hero (text on it uses `onBand`). */
  band: string;
  onBand: string;
  /** A quiet tint for icebreakers and highlights. */
  soft: string;
  icon: LucideIcon;
  label: string;
}

/** Full class strings (Tailwind finds them here). Text on each band keeps WCAG AA contrast. */
export const THEMES: Record<MixerTheme, ThemeStyle> = {
  sunset: {
    band: 'bg-linear-to-br from-orange-500 via-rose-600 to-pink-700',
    onBand: 'text-white',
    soft: 'bg-orange-50 border-orange-200 text-orange-950 dark:bg-orange-950/40 dark:border-orange-900 dark:text-orange-100',
    icon: Sunset,
    label: 'Sunset',
  },
  ocean: {
    band: 'bg-linear-to-br from-sky-600 via-blue-700 to-indigo-800',
    onBand: 'text-white',
    soft: 'bg-sky-50 border-sky-200 text-sky-950 dark:bg-sky-950/40 dark:border-sky-900 dark:text-sky-100',
    icon: Waves,
    label: 'Ocean',
  },
  forest: {
    band: 'bg-linear-to-br from-emerald-600 via-green-700 to-teal-800',
    onBand: 'text-white',
    soft: 'bg-emerald-50 border-emerald-200 text-emerald-950 dark:bg-emerald-950/40 dark:border-emerald-900 dark:text-emerald-100',
    icon: Trees,
    label: 'Forest',
  },
  berry: {
    band: 'bg-linear-to-br from-fuchsia-600 via-purple-700 to-violet-800',
    onBand: 'text-white',
    soft: 'bg-fuchsia-50 border-fuchsia-200 text-fuchsia-950 dark:bg-fuchsia-950/40 dark:border-fuchsia-900 dark:text-fuchsia-100',
    icon: Cherry,
    label: 'Berry',
  },
  citrus: {
    band: 'bg-linear-to-br from-yellow-300 via-amber-300 to-lime-400',
    onBand: 'text-stone-900',
    soft: 'bg-amber-50 border-amber-200 text-amber-950 dark:bg-amber-950/40 dark:border-amber-900 dark:text-amber-100',
    icon: Citrus,
    label: 'Citrus',
  },
  midnight: {
    band: 'bg-linear-to-br from-indigo-900 via-slate-900 to-violet-950',
    onBand: 'text-white',
    soft: 'bg-indigo-50 border-indigo-200 text-indigo-950 dark:bg-indigo-950/40 dark:border-indigo-900 dark:text-indigo-100',
    icon: MoonStar,
    label: 'Midnight',
  },
};

export const themeOf = (theme: string): ThemeStyle => THEMES[theme as MixerTheme] ?? THEMES.sunset;
