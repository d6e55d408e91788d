import { CalendarHeart } from 'lucide-react';
import { Link } from 'react-router';
import { ageFromDob, nameError, pronounsError } from '../../../../shared/onboarding';
import { parseDob } from '../../../../shared/profile-texts';
import { describedBy, Field, Input } from '../../../components/ui/input';
import { useAuth } from '../../../lib/auth';
import { EditableSection } from '../components/editable-section';
import { useSectionEditor } from '../components/use-section-editor';
import type { SectionProps } from './types';
import { londonFormat } from '../../../lib/london-time';

// A date of birth is a calendar date (stored as UTC midnight), not an instant.
const dobFormat = londonFormat({ day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

function DateOfBirth({ dob }: { dob: string | null }) {
  const parts = parseDob(dob);
  const age = ageFromDob(dob);
  return (
    <div className="flex items-start gap-3 rounded-xl bg-muted/70 p-3 text-sm">
      <CalendarHeart className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <div>
        <p>
          <span className="font-medium">Date of birth: </span>
          {parts ? `${dobFormat(new Date(Date.UTC(parts.year, parts.month - 1, parts.day)))}${age !== null ? ` (${age})` : ''}` : 'Not set'}
        </p>
        <p className="mt-0.5 text-muted-foreground">
          To keep ages honest, only our support team can change it.{' '}
          <Link to="/contact-support" className="font-medium text-primary underline-offset-4 hover:underline">
            Contact support
          </Link>
        </p>
      </div>
    </div>
  );
}

export function AboutSection({ profile, onPreview }: SectionProps) {
  const auth = useAuth();
  const ed = useSectionEditor({
    profile,
    from: (p) => ({ fullName: p.fullName ?? '', pronouns: p.pronouns ?? '' }),
    toInput: (v) => ({ fullName: v.fullName, pronouns: v.pronouns }),
    savedMessage: 'Your name and pronouns are saved.',
    onPreview,
    // The account menu shows the name.
    onSaved: () => void auth.refresh(),
  });
  const nameMsg = ed.errors.fullName ?? nameError(ed.value.fullName);
  const pronounsMsg = ed.errors.pronouns ?? pronounsError(ed.value.pronouns);
  return (
    <EditableSection
      id="about"
      title="About you"
      editing={ed.editing}
      saving={ed.saving}
      canSave={!nameMsg && !pronounsMsg}
      onEdit={ed.start}
      onCancel={ed.cancel}
      onSave={() => void ed.save()}
      view={
        <div className="grid gap-3">
          <dl className="grid gap-1 text-sm sm:grid-cols-[8rem_1fr]">
            <dt className="text-muted-foreground">Name</dt>
            <dd className="font-medium">{profile.fullName}</dd>
            <dt className="text-muted-foreground">Pronouns</dt>
            <dd className="font-medium">
              {profile.pronouns || <span className="font-normal italic text-muted-foreground">Not added</span>}
            </dd>
          </dl>
          <DateOfBirth dob={profile.dob} />
        </div>
      }
    >
      <Field id="edit-fullName" label="Full Name" error={nameMsg ?? undefined}>
        <Input
          id="edit-fullName"
          autoComplete="name"
          placeholder="Your full name"
          value={ed.value.fullName}
          aria-invalid={Boolean(nameMsg)}
          aria-describedby={nameMsg ? 'edit-fullName-error' : undefined}
          onChange={(e) => ed.set({ fullName: e.target.value })}
        />
      </Field>
      <Field id="edit-pronouns" label="Pronouns (optional)" error={pronounsMsg ?? undefined} hint="Help others know how to refer to you">
        <Input
          id="edit-pronouns"
          placeholder="e.g., they/them, she/her, he/him"
          value={ed.value.pronouns}
          aria-invalid={Boolean(pronounsMsg)}
          aria-describedby={describedBy('edit-pronouns', pronounsMsg ?? undefined, true)}
          onChange={(e) => ed.set({ pronouns: e.target.value })}
        />
      </Field>
      <DateOfBirth dob={profile.dob} />
    </EditableSection>
  );
}
