import { useCallback, useEffect, useSyncExternalStore } from 'react';

export type ThemeChoice = 'light' | 'dark' | 'system';
const KEY = 'fancy-theme';
const listeners = new Set<() => void>();

export function readTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'dark' || v === 'system' ? v : 'light';
  } catch {
    return 'light';
  }
}

let current: ThemeChoice = typeof window === 'undefined' ? 'light' : readTheme();

function apply(choice: ThemeChoice) {
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Light by default, dark or system; stored in the browser (public/theme-init.js applies it before paint). */
export function useTheme() {
  // A server-rendered page (decision 028) is hydrated as light; the stored choice follows at once.
  const theme = useSyncExternalStore(
    subscribe,
    () => current,
    () => 'light' as const,
  );
  useEffect(() => {
    apply(theme);
    if (theme !== 'system') return;
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => apply('system');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [theme]);
  const setTheme = useCallback((next: ThemeChoice) => {
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Not persisted in private mode; still applied for this visit.
    }
    current = next;
    for (const l of listeners) l();
  }, []);
  return { theme, setTheme };
}
