import { describe, expect, it } from 'vitest';
import type { SessionResponse } from '../../lib/auth';
import { gateFor } from './protected-route';

const user = {
  id: 'u1',
  email: 'nia@example.com',
  name: 'Nia',
  emailVerified: true,
  role: 'user' as const,
  onboardingComplete: true,
  createdAt: '2026-11-01T00:00:00Z',
};
const session = (over: Partial<SessionResponse['user'] & object> | null, profile: SessionResponse['profile'] = null): SessionResponse => ({
  user: over === null ? null : { ...user, ...over },
  session: over === null ? null : { expiresAt: '2026-12-01T00:00:00Z' },
  profile,
});

describe('the gates before member pages (spec §2), in order', () => {
  it('sign in, then the address, then onboarding; open past them', () => {
    expect(gateFor(session(null))).toBe('login');
    expect(gateFor(session({ emailVerified: false, onboardingComplete: false }))).toBe('verify');
    expect(gateFor(session({ onboardingComplete: false }, { fullName: 'Nia', onboardingCompleted: false, avatarUrl: null }))).toBe(
      'onboarding',
    );
    expect(gateFor(session({ onboardingComplete: false }, { fullName: 'Nia', onboardingCompleted: true, avatarUrl: null }))).toBeNull();
    expect(gateFor(session({}, { fullName: 'Nia', onboardingCompleted: false, avatarUrl: null }))).toBeNull();
  });
});
