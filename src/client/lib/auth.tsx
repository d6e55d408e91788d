import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { REFRESH_BACKOFF_MS } from '../../shared/constants';
import type { Campaign } from '../../shared/schemas/auth';
import type { TwoFactorLoginInput } from '../../shared/schemas/settings';
import { useToast } from '../components/ui/toast';
import { ApiError, api, peekEmbedded } from './api';

/** What a failed sign-in says when the server gives no reason of its own. */
export const LOGIN_FAILED = 'An error occurred during login. Please try again.';

export interface AuthUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  role: 'user' | 'admin';
  onboardingComplete: boolean;
  createdAt: string;
}
export interface AuthSession {
  expiresAt: string;
}
export interface AuthProfile {
  fullName: string | null;
  onboardingCompleted: boolean;
  /** Signed thumbnail URL of the profile picture, or null. */
  avatarUrl: string | null;
}
export interface SessionResponse {
  user: AuthUser | null;
  session: AuthSession | null;
  profile: AuthProfile | null;
}

/** The session as the app last knew it (undefined until the first answer). */
let current: SessionResponse | undefined;

/**
 * The session as the app knows it now, outside React (route loaders): the last answer, or on a
 * first load the one the page came with; undefined when not known yet.
 */
export function knownSession(): SessionResponse | undefined {
  return current ?? (peekEmbedded('/api/auth/session')?.data as SessionResponse | undefined);
}

/** The auth events of spec §4. */
export type AuthEvent = 'INITIAL_SESSION' | 'SIGNED_IN' | 'SIGNED_OUT' | 'TOKEN_REFRESHED' | 'USER_UPDATED' | 'PASSWORD_RECOVERY';

export interface AuthContextValue {
  user: AuthUser | null;
  session: AuthSession | null;
  profile: AuthProfile | null;
  isLoading: boolean;
  isAuthenticated: boolean;
  /** Where protected pages send the browser once signed out on purpose (account deletion → '/'). */
  exitTo: string | null;
  /**
   * Password sign-in. With two-step verification on, the password alone gives no session: the
   * answer is 'two-factor' and `verifyTwoFactor` finishes it. Every sign-in toast (spec §8:
   * "Welcome back!", "Login failed") is shown here and nowhere else.
   */
  login(email: string, password: string, options?: { verifyToken?: string }): Promise<'signed-in' | 'two-factor'>;
  /** The second step of a two-step sign-in; an expired attempt (401) toasts "Login failed", other errors are the caller's to show. */
  verifyTwoFactor(input: TwoFactorLoginInput): Promise<void>;
  register(input: { fullName: string; email: string; password: string; campaign?: Campaign }): Promise<void>;
  logout(): Promise<void>;
  deleteAccount(): Promise<void>;
  /** Re-reads the session (after verification, profile changes…). */
  refresh(event?: AuthEvent): Promise<void>;
  onAuthStateChange(listener: (event: AuthEvent, session: AuthSession | null) => void): () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_REFRESH_ATTEMPTS = 6;
/** Re-validate this long before the session would expire, and at least this often. */
const REFRESH_LEAD_MS = 60_000;
const REFRESH_MAX_INTERVAL_MS = 10 * 60_000;

/** Display name (spec §2): profile full_name → account name → e-mail local part → "User". */
export function displayName(
  profile: { fullName?: string | null } | null,
  user: { name?: string | null; email?: string | null } | null,
): string {
  return profile?.fullName?.trim() || user?.name?.trim() || user?.email?.split('@')[0] || 'User';
}

export function AuthProvider({ children }: { children: React.ReactNode }) {
  const toast = useToast();
  // A member page comes with its session answer (and, rendered on the server, made from it):
  // the first render uses it, so the page hydrates as it was sent. The effect below still
  // takes that answer and announces INITIAL_SESSION as always.
  const [initial] = useState(() => peekEmbedded('/api/auth/session')?.data as SessionResponse | undefined);
  const [state, setState] = useState<SessionResponse>(() => initial ?? { user: null, session: null, profile: null });
  const [isLoading, setLoading] = useState(!initial);
  const [exitTo, setExitTo] = useState<string | null>(null);
  /** Every new answer, kept for the route loaders too (knownSession), which run before the next render. */
  const know = useCallback((next: SessionResponse) => {
    current = next;
    setState(next);
  }, []);
  const listeners = useRef(new Set<(event: AuthEvent, session: AuthSession | null) => void>());
  const emit = useCallback((event: AuthEvent, session: AuthSession | null) => {
    for (const l of listeners.current) l(event, session);
  }, []);

  const load = useCallback(
    async (event: AuthEvent) => {
      // Network failures are retried with backoff (200 ms doubled); an answer without a user signs out.
      for (let attempt = 0; ; attempt++) {
        try {
          const next = await api<SessionResponse>('/api/auth/session');
          // The first answer reveals the whole page (shell and route): as a transition React
          // renders it in slices, so a slow phone stays responsive (decision 018).
          (event === 'INITIAL_SESSION' ? startTransition : (update: () => void) => update())(() => {
            if (next.user) setExitTo(null);
            know(next);
          });
          emit(next.user ? event : 'SIGNED_OUT', next.session);
          return;
        } catch (err) {
          const retryable = err instanceof ApiError && (err.status === 0 || err.status >= 500);
          if (!retryable || attempt >= MAX_REFRESH_ATTEMPTS) {
            if (!retryable) {
              know({ user: null, session: null, profile: null });
              emit('SIGNED_OUT', null);
            }
            return;
          }
          await sleep(REFRESH_BACKOFF_MS * 2 ** attempt);
        }
      }
    },
    [emit, know],
  );

  useEffect(() => {
    load('INITIAL_SESSION').finally(() => startTransition(() => setLoading(false)));
  }, [load]);

  // Keep the session alive and notice when it ends elsewhere.
  useEffect(() => {
    if (!state.session) return;
    const untilExpiry = new Date(state.session.expiresAt).getTime() - Date.now() - REFRESH_LEAD_MS;
    const timer = setTimeout(() => void load('TOKEN_REFRESHED'), Math.max(5_000, Math.min(untilExpiry, REFRESH_MAX_INTERVAL_MS)));
    return () => clearTimeout(timer);
  }, [state.session, load]);

  const welcome = useCallback(() => toast({ title: 'Welcome back!', description: "You've successfully logged in." }), [toast]);

  const login = useCallback(
    async (email: string, password: string, options: { verifyToken?: string } = {}) => {
      setLoading(true);
      try {
        const res = await api<{ ok: true; twoFactor?: boolean }>('/api/auth/login', {
          body: { email, password, verifyToken: options.verifyToken },
        });
        if (res.twoFactor) return 'two-factor' as const;
        await load('SIGNED_IN');
        welcome();
        return 'signed-in' as const;
      } catch (err) {
        toast({
          title: 'Login failed',
          description: (err as Error).message || LOGIN_FAILED,
          variant: 'destructive',
        });
        throw err;
      } finally {
        setLoading(false);
      }
    },
    [load, toast, welcome],
  );

  const verifyTwoFactor = useCallback(
    async (input: TwoFactorLoginInput) => {
      setLoading(true);
      try {
        await api('/api/auth/two-factor', { body: input });
        await load('SIGNED_IN');
        welcome();
      } catch (err) {
        // The attempt expired: back to the password, with the reason in a toast.
        if (err instanceof ApiError && err.status === 401) {
          toast({ title: 'Login failed', description: err.message || LOGIN_FAILED, variant: 'destructive' });
        }
        throw err;
      } finally {
        setLoading(false);
      }
    },
    [load, toast, welcome],
  );

  const register = useCallback(
    async (input: { fullName: string; email: string; password: string; campaign?: Campaign }) => {
      setLoading(true);
      try {
        await api('/api/auth/register', { body: input });
        toast({ title: 'Check your email', description: "We've sent you a verification link. Click it to complete your registration." });
      } catch (err) {
        toast({
          title: 'Registration failed',
          description: (err as Error).message || 'An error occurred during registration. Please try again.',
          variant: 'destructive',
        });
        throw err;
      } finally {
        setLoading(false);
      }
    },
    [toast],
  );

  const logout = useCallback(async () => {
    setLoading(true);
    try {
      // A signed-out browser gets no more of this member's notifications (a shared phone). Best effort, loaded on demand.
      await import('./push-device').then((m) => m.disablePush()).catch(() => undefined);
      await api('/api/auth/logout', { method: 'POST', body: {} });
      // Spec §2: log out returns to /auth/login (not to a login that sends the next person to this page).
      setExitTo('/auth/login');
      know({ user: null, session: null, profile: null });
      emit('SIGNED_OUT', null);
      toast({ title: 'Logged out', description: "You've been successfully logged out." });
    } catch (err) {
      toast({ title: 'Error', description: (err as Error).message || 'An error occurred while logging out.', variant: 'destructive' });
      throw err;
    } finally {
      setLoading(false);
    }
  }, [emit, know, toast]);

  const deleteAccount = useCallback(async () => {
    if (!state.user) {
      const message = 'No user found to delete';
      toast({ title: 'Deletion failed', description: message, variant: 'destructive' });
      throw new Error(message);
    }
    setLoading(true);
    try {
      await api('/api/me', { method: 'DELETE' });
      setExitTo('/');
      know({ user: null, session: null, profile: null });
      emit('SIGNED_OUT', null);
      toast({ title: 'Account deleted', description: 'Your account and all data have been permanently deleted.' });
    } catch (err) {
      toast({
        title: 'Deletion failed',
        description: (err as Error).message || 'An error occurred while deleting your account. Please try again.',
        variant: 'destructive',
      });
      throw err;
    } finally {
      setLoading(false);
    }
  }, [emit, know, state.user, toast]);

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      isLoading,
      exitTo,
      isAuthenticated: Boolean(state.user),
      login,
      verifyTwoFactor,
      register,
      logout,
      deleteAccount,
      refresh: (event = 'USER_UPDATED') => load(event),
      onAuthStateChange(listener) {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    }),
    [state, isLoading, exitTo, login, verifyTwoFactor, register, logout, deleteAccount, load],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
