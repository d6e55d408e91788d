import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api';

/**
 * Puts the server's per-field messages on the form's fields (keeping what the member typed).
 * Returns true when at least one field got a message, so the caller can skip a toast.
 */
export function applyFieldErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, fields: readonly Path<T>[]): boolean {
  if (!(err instanceof ApiError)) return false;
  let applied = false;
  for (const name of fields) {
    const message = err.fields[name];
    if (message) {
      setError(name, { type: 'server', message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}

export const errorMessage = (err: unknown, fallback = 'Something went wrong. Please try again.') =>
  (err instanceof Error && err.message) || fallback;
