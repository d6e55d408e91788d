import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as zm } from 'zod/mini';
import { DEFAULT_MESSAGES } from './zod-defaults';

const body = zm.object({
  name: zm.string().check(zm.minLength(1)),
  email: zm.string({ error: 'Please enter your email' }),
  tags: zm.array(zm.string()).check(zm.maxLength(2)),
  note: zm.optional(zm.string().check(zm.maxLength(3))),
  kind: zm.enum(['a', 'b']),
});
const classic = z.object({ age: z.number().int().min(18), interests: z.array(z.string()) }).strict();

const messages = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.') || '_', i.message]));

describe('default zod messages', () => {
  it('answer a body that is not an object with "Please send this request as JSON."', () => {
    for (const v of [[1], 'x', 1, null, undefined]) {
      expect(messages(body.safeParse(v)), JSON.stringify(v)).toEqual({ _: DEFAULT_MESSAGES.json });
      expect(messages(classic.safeParse(v)), JSON.stringify(v)).toEqual({ _: DEFAULT_MESSAGES.json });
    }
  });

  it('give missing and wrong fields a plain message, and keep each schema’s own wording first', () => {
    expect(messages(body.safeParse({ tags: ['a', 'b', 'c'], note: 'long', kind: 'c', name: '' }))).toEqual({
      name: DEFAULT_MESSAGES.required,
      email: 'Please enter your email',
      tags: DEFAULT_MESSAGES.tooMany,
      note: DEFAULT_MESSAGES.tooLong,
      kind: DEFAULT_MESSAGES.check,
    });
    expect(messages(classic.safeParse({ age: 'x', extra: 1 }))).toEqual({
      age: DEFAULT_MESSAGES.check,
      interests: DEFAULT_MESSAGES.required,
      _: DEFAULT_MESSAGES.unknownField,
    });
    expect(messages(classic.safeParse({ age: 12.5, interests: [] }))).toEqual({ age: DEFAULT_MESSAGES.check });
  });

  it('never answer with zod’s own English wording', () => {
    const all = [body.safeParse({}), body.safeParse([]), classic.safeParse({ age: -1, interests: [1] })].flatMap(
      (r) => r.error?.issues ?? [],
    );
    for (const issue of all) expect(issue.message).not.toMatch(/^(Invalid|Too (big|small)|Unrecognized|Expected)\b/);
  });
});
