import { useCallback, useState } from 'react';
import type { ProfileEditInput } from '../../../../shared/schemas/profile-edit';
import type { OwnProfile } from '../../../../shared/profile-texts';
import { useToast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api';
import { useEditProfile } from '../api';

export interface SectionEditor<T> {
  editing: boolean;
  value: T;
  set(patch: Partial<T> | ((v: T) => Partial<T>)): void;
  errors: Record<string, string>;
  saving: boolean;
  start(): void;
  cancel(): void;
  save(): Promise<void>;
}

/**
 * The edit-in-place cycle of one /profile section: start from the saved profile, edit a local
 * copy (shown live in the preview card), save only this section's fields. A rejected field
 * keeps what the member typed and shows the server's message on that field; both outcomes
 * are announced with a toast.
 */
export function useSectionEditor<T extends object>(opts: {
  profile: OwnProfile;
  from(profile: OwnProfile): T;
  toInput(value: T): ProfileEditInput;
  /** "Your bio is saved." */
  savedMessage: string;
  onPreview(patch: Partial<OwnProfile> | null): void;
  toPreview?(value: T): Partial<OwnProfile>;
  onSaved?(): void;
}): SectionEditor<T> {
  const toast = useToast();
  const edit = useEditProfile();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<T>(() => opts.from(opts.profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { onPreview, toPreview } = opts;

  const preview = useCallback((v: T) => onPreview(toPreview ? toPreview(v) : (v as Partial<OwnProfile>)), [onPreview, toPreview]);

  const set: SectionEditor<T>['set'] = (patch) => {
    setValue((prev) => {
      const next = { ...prev, ...(typeof patch === 'function' ? patch(prev) : patch) };
      preview(next);
      return next;
    });
    setErrors({});
  };

  return {
    editing,
    value,
    set,
    errors,
    saving: edit.isPending,
    start() {
      const v = opts.from(opts.profile);
      setValue(v);
      setErrors({});
      setEditing(true);
    },
    cancel() {
      setEditing(false);
      setErrors({});
      onPreview(null);
    },
    async save() {
      try {
        await edit.mutateAsync(opts.toInput(value));
        setEditing(false);
        onPreview(null);
        toast({ title: 'Profile updated', description: opts.savedMessage });
        opts.onSaved?.();
      } catch (err) {
        const fields = err instanceof ApiError ? err.fields : {};
        setErrors(fields);
        toast({
          title: "Couldn't save your changes",
          description: (err as Error).message || 'Something went wrong. Please try again.',
          variant: 'destructive',
        });
      }
    },
  };
}
