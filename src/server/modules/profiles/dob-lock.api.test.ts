import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../../../../tests/helpers/test-app';
import { profiles } from '../../db/schema';
import { DOB_LOCKED } from './service';

const t = setupTestApp();

describe('date of birth after onboarding', () => {
  it('can be set while onboarding, and only support can change it afterwards', async () => {
    const m = await t.member('Dee');
    const first = await t.request({ method: 'PATCH', url: '/api/profile/draft', cookie: m.cookie, payload: { dob: '1990-04-02' } });
    expect(first.statusCode).toBe(200);
    await t.database.db.update(profiles).set({ onboardingCompleted: true }).where(eq(profiles.id, m.id));
    const again = await t.request({ method: 'PATCH', url: '/api/profile/draft', cookie: m.cookie, payload: { dob: '2000-04-02' } });
    expect(again.statusCode).toBe(403);
    expect(again.json().error.message).toBe(DOB_LOCKED);
    const [row] = await t.database.db.select({ dob: profiles.dob }).from(profiles).where(eq(profiles.id, m.id));
    expect(row.dob).toBe('1990-04-02');
  });
});
