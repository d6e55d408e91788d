import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { createLogger, scrubText } from './log';

const SECRET_ADDRESS = 'private.person@example.com';
const SECRET_BODY = 'meet me at 42 Hidden Lane';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  t = await createTestApp(
    {},
    {
      logger: createLogger('info', stream),
      setup(app) {
        // Real failing statements whose values are personal data, as a bug in a route would produce.
        app.get('/test/failing-query', async () => {
          await app.deps.database.db.execute(sql`select ${SECRET_ADDRESS}::int, ${SECRET_BODY} as body`);
        });
        app.get('/test/duplicate-key', async () => {
          await app.deps.database.db.execute(sql`insert into "user" (id, name, email, email_verified, created_at, updated_at)
            select 'dup-' || id, name, email, email_verified, now(), now() from "user" limit 1`);
        });
      },
    },
  );
});
afterAll(() => t?.close());

describe('error logs carry no personal data', () => {
  it('a failed statement is logged without its parameters, quoted values or addresses', async () => {
    await t.member('Logged Person');
    for (const url of ['/test/failing-query', '/test/duplicate-key']) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' } });
    }
    const errors = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'unhandled error');
    expect(errors).toHaveLength(2);
    // Something an operator can act on is still there…
    expect(errors[0].err.message).toMatch(/Failed query: select/);
    expect(errors[0].err.stack).toBeTruthy();
    expect(JSON.stringify(errors[1])).toMatch(/duplicate key|unique/i);
    // …but no value that was in the statement.
    const all = lines.join('\n');
    expect(all).not.toContain(SECRET_ADDRESS);
    expect(all).not.toContain('Hidden Lane');
    expect(all).not.toMatch(/member\d+\.\d+@example\.com/);
  });

  it('scrubs drizzle parameter tails, quoted key values and addresses from any text', () => {
    expect(scrubText('Failed query: select $1\nparams: a@b.co,secret\nmore')).toBe('Failed query: select $1\nparams: [redacted]');
    expect(scrubText('Key (email)=(someone@example.com) already exists.')).toBe('Key (email)=(…) already exists.');
    expect(scrubText('550 5.1.1 <someone@example.com>: Recipient address rejected')).toBe(
      '550 5.1.1 <[email]>: Recipient address rejected',
    );
  });
});
