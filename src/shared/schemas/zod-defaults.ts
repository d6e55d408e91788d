// Plain default messages for every zod schema (issue 12): a member never sees zod's own wording
// ("Invalid input: expected object, received array"). A message a schema gives itself (the spec's
// per-field wording) still wins: zod asks this map only for issues that have none. Imported once
// for its effect by every shared schema module (so server and client get it with their schemas, and
// no page loads it without them); zod and zod/mini share it.
import { z } from 'zod/mini';

export const DEFAULT_MESSAGES = {
  json: 'Please send this request as JSON.',
  required: 'This field is required.',
  tooLong: 'This is too long.',
  tooMany: 'There are too many items here.',
  unknownField: 'This request has a field the form does not have.',
  check: 'Please check this field.',
} as const;

type Issue = Parameters<NonNullable<z.core.$ZodConfig['customError']>>[0];

export function defaultMessage(iss: Issue): string {
  const atRoot = (iss.path ?? []).length === 0;
  switch (iss.code) {
    case 'invalid_type':
      // The whole body is not an object (a string, an array, nothing): not a JSON request.
      if (atRoot) return DEFAULT_MESSAGES.json;
      return iss.input === undefined || iss.input === null ? DEFAULT_MESSAGES.required : DEFAULT_MESSAGES.check;
    case 'too_small':
      return iss.origin === 'string' && Number(iss.minimum) <= 1 ? DEFAULT_MESSAGES.required : DEFAULT_MESSAGES.check;
    case 'too_big':
      return iss.origin === 'string'
        ? DEFAULT_MESSAGES.tooLong
        : iss.origin === 'array'
          ? DEFAULT_MESSAGES.tooMany
          : DEFAULT_MESSAGES.check;
    case 'unrecognized_keys':
      return DEFAULT_MESSAGES.unknownField;
    default:
      return DEFAULT_MESSAGES.check;
  }
}

z.config({ customError: defaultMessage });
