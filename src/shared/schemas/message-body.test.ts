import { describe, expect, it } from 'vitest';
import { checkMessageBody, TEXT_MESSAGES } from '../member-text';
import { messageBodySchema } from './message-body';

const MESSAGES = { empty: 'Write something', tooLong: 'Too long' };

describe('a message body checked without zod (issue 33)', () => {
  it('answers as the server schema does, text and message alike', () => {
    const schema = messageBodySchema(20, MESSAGES);
    const inputs = [
      'hello',
      '  padded  ',
      '',
      '   ',
      '\u200B\u200B',
      '\u0301\u0301',
      'a\u0000b',
      'line one\nline two',
      'tab\there',
      'bidi \u202Eevil',
      'x'.repeat(20),
      'x'.repeat(21),
      ` ${'x'.repeat(20)} `,
      'a\n\n\n\nb',
      'crlf\r\nline',
      '\uD800 lone',
      '🏴󠁧󠁢󠁷󠁬󠁳󠁿 flag',
      'hi\u{E0041}dden',
    ];
    for (const input of inputs) {
      const zod = schema.safeParse({ body: input });
      const mine = checkMessageBody(input, 20, MESSAGES);
      if (zod.success) expect(mine, JSON.stringify(input)).toEqual({ ok: true, body: zod.data.body });
      else expect(mine, JSON.stringify(input)).toEqual({ ok: false, message: zod.error.issues[0]?.message });
    }
    expect(checkMessageBody('a\u0007', 20, MESSAGES)).toEqual({ ok: false, message: TEXT_MESSAGES.control });
  });
});
