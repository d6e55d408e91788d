import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, auditActorName } from './admin';

describe('audit log wording', () => {
  it("names the formation job's own rows in words (the overview and the formation page share the labels)", () => {
    for (const action of ['formation.mixer_created', 'formation.invited']) expect(AUDIT_ACTION_LABELS[action]).toMatch(/^[A-Z][a-z]/);
  });

  it('says who did it: the admin, Fancy itself for automatic rows, or a removed account', () => {
    expect(auditActorName({ action: 'mixer.create', actor: { name: 'Ada Admin' } })).toBe('Ada Admin');
    expect(auditActorName({ action: 'formation.invited', actor: null })).toBe('Fancy (automatic)');
    expect(auditActorName({ action: 'invitation.expired', actor: null })).toBe('Fancy (automatic)');
    expect(auditActorName({ action: 'report.dismiss', actor: null })).toBe('Removed account');
  });
});
