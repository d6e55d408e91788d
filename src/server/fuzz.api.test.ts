import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import { request as httpRequest } from 'node:http';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../tests/helpers/test-app';
import { ERROR_STATUS, type ErrorCode } from '../shared/errors';
import { buildApp } from './app';

/**
 * Issue 12: hostile bodies, query strings and path parameters sent to every route, generated
 * from each route's own zod schemas (the field names) and a list of hostile values, must never
 * give a 5xx, and every 4xx must be the `{error:{code,message}}` shape of DESIGN §5.
 */

interface RouteInfo {
  method: string;
  url: string;
  params: string[];
  query: string[];
  body: string[];
}

const routes: RouteInfo[] = [];
// Fastify announces each new instance before any route is added: record them with their schemas.
const onInit = (message: unknown) => {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (r: RouteOptions) => {
    const methods = (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD');
    const schema = (r.schema ?? {}) as Record<string, unknown>;
    for (const method of methods) {
      routes.push({ method, url: r.url, params: keysOf(schema.params), query: keysOf(schema.querystring), body: keysOf(schema.body) });
    }
  });
};

/** Field names of a zod object schema (classic or mini), through defaults, optionals, pipes and partials. */
function keysOf(schema: unknown, depth = 0): string[] {
  const def = (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;
  if (!def || depth > 10) return [];
  if (def.type === 'object') return Object.keys(def.shape as object);
  if (def.type === 'pipe') return keysOf(def.in, depth + 1);
  if (def.innerType) return keysOf(def.innerType, depth + 1);
  if (def.type === 'union' || def.type === 'intersection') {
    const parts = (def.options as unknown[] | undefined) ?? [def.left, def.right];
    return [...new Set(parts.flatMap((p) => keysOf(p, depth + 1)))];
  }
  return [];
}

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const UUID = '00000000-0000-4000-8000-000000000000';

/** Values that are wrong in type, size, encoding or meaning, including well-formed-but-wrong cursors and ids. */
const HOSTILE: unknown[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[2J',
  '\u200B',
  '\u200B\u200C\u200D\uFEFF',
  '\u202Egnp.exe',
  '\uD800',
  'a\uDFFFb',
  '%00',
  '%E0%A4%A',
  '../../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'x'.repeat(5000),
  'é'.repeat(70_000),
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  'true',
  'null',
  '__proto__',
  UUID,
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '------------------------------------',
  'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
  '0000-00-00',
  '9999-12-31',
  '2026-02-30',
  '-271821-04-19T00:00:00.000Z',
  '275760-09-13T00:00:00.000Z',
  '9999-99-99T99:99:99.999999Z',
  b64('9999-99-99T99:99:99.999999Z|------------------------------------'),
  b64(`2026-13-45T25:61:61.000000Z|${UUID}`),
  b64(`0000-01-01T00:00:00.000000Z|${UUID}`),
  b64(['9999-99-99T99:99:99Z', UUID]),
  b64(['2026-01-01T00:00:00Z', 'not-a-uuid']),
  b64(['-99999999999999999999999', 'x']),
  b64(['99999999999999999999999', UUID]),
  b64([1e308, 1e308, UUID]),
  b64([-1e308, 0, UUID]),
  b64([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, UUID]),
  b64(['2026-01-01T00:00:00.000Z', UUID, 'extra']),
  b64({ __proto__: null, a: 1 }),
  b64('[[[[[[[[[[[['),
  b64('\u0000'),
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  true,
  false,
  null,
  [],
  [1, 2, 3],
  ['a', null, {}],
  {},
  { a: { b: { c: { d: {} } } } },
  { $gt: '' },
  JSON.parse('{"__proto__":{"role":"admin","isAdmin":true}}'),
  { constructor: { prototype: { polluted: true } } },
  Array.from({ length: 2000 }, (_, i) => `tag${i}`),
];

/** One query-string value as text (arrays become repeated keys). */
function queryPart(key: string, v: unknown): string {
  const enc = (x: unknown) => {
    try {
      return encodeURIComponent(typeof x === 'string' ? x : (JSON.stringify(x) ?? 'undefined'));
    } catch {
      return '%ED%A0%80'; // a lone surrogate, as raw bytes
    }
  };
  if (Array.isArray(v)) return v.length ? v.map((x) => `${key}=${enc(x)}`).join('&') : `${key}=`;
  return `${key}=${enc(v)}`;
}

function pathFor(url: string, v: unknown): string {
  return url.replace(/:[A-Za-z]+/g, () => {
    if (typeof v !== 'string' || v === '') return encodeURIComponent(JSON.stringify(v) ?? 'x');
    try {
      return encodeURIComponent(v);
    } catch {
      return '%ED%A0%80';
    }
  });
}

/** A small seeded generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Case {
  path: string;
  payload?: string;
  contentType?: string;
}

/** At least a few hundred cases per route: each field × each hostile value, whole-body oddities, then random mixes. */
function casesFor(route: RouteInfo, perRoute: number): Case[] {
  const random = rng(route.url.length * 31 + route.method.length);
  const pick = () => HOSTILE[Math.floor(random() * HOSTILE.length)];
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  const basePath = route.url.replace(/:[A-Za-z]+/g, UUID);
  const cases: Case[] = [];
  const json = (body: unknown) => JSON.stringify(body) ?? 'null';
  const withQuery = (path: string, q: Record<string, unknown>) => {
    const parts = Object.entries(q).map(([k, v]) => queryPart(k, v));
    return parts.length ? `${path}?${parts.join('&')}` : path;
  };
  for (const v of HOSTILE) {
    if (route.params.length) cases.push({ path: pathFor(route.url, v), payload: hasBody ? '{}' : undefined });
    for (const key of route.query) cases.push({ path: withQuery(basePath, { [key]: v }) });
    for (const key of route.body) cases.push({ path: basePath, payload: json({ [key]: v }) });
    if (hasBody) cases.push({ path: basePath, payload: json(v) });
  }
  if (hasBody) {
    cases.push({ path: basePath, payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}' });
    cases.push({ path: basePath, payload: '{"a":' });
    cases.push({ path: basePath, payload: '\u0000' });
    cases.push({ path: basePath, payload: `${'['.repeat(5000)}${']'.repeat(5000)}` });
    cases.push({ path: basePath, payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' });
    cases.push({ path: basePath, payload: '<x/>', contentType: 'text/xml' });
    cases.push({ path: basePath, payload: 'hello', contentType: 'text/plain' });
    cases.push({ path: basePath, payload: '{"a":1}', contentType: 'text/plain; charset=utf-8' });
  }
  const fields = [...route.params.map((k) => `p:${k}`), ...route.query.map((k) => `q:${k}`), ...route.body.map((k) => `b:${k}`)];
  while (cases.length < perRoute) {
    const query: Record<string, unknown> = {};
    const body: Record<string, unknown> = {};
    let path = route.url.replace(/:[A-Za-z]+/g, UUID);
    for (const f of fields) {
      if (random() < 0.4) continue;
      const [where, key] = [f.slice(0, 1), f.slice(2)];
      const v = pick();
      if (where === 'p') path = pathFor(route.url, v);
      else if (where === 'q') query[key] = v;
      else body[key] = v;
    }
    if (random() < 0.2) body[`extra${Math.floor(random() * 5)}`] = pick();
    cases.push({ path: withQuery(path, query), payload: hasBody ? json(random() < 0.1 ? pick() : body) : undefined });
  }
  return cases;
}

/** zod's own English messages ("Invalid input: expected object, received array", "Too small: …"): never for members. */
const RAW_ZOD = /^(Invalid(?! email or password)\b|Too (big|small)\b|Unrecognized key|Expected\b)/;

/** Routes that would end the caller's own session, or that are not HTTP. */
const SKIP = new Set(['POST /api/auth/logout', 'DELETE /api/me', 'POST /api/me/sessions/revoke-others', 'GET /api/realtime']);
const PER_ROUTE = 300;

describe('hostile input never gives a 5xx', () => {
  let t: TestApp;
  let member: string;
  let admin: string;

  beforeAll(async () => {
    diagnostics.subscribe('fastify.initialization', onInit);
    try {
      t = await createTestApp();
    } finally {
      diagnostics.unsubscribe('fastify.initialization', onInit);
    }
    member = (await t.member('Fuzz Member')).cookie;
    admin = (await t.member('Fuzz Admin', { admin: true })).cookie;
  });
  afterAll(() => t?.close());

  const problem = (res: { statusCode: number; body: string }): string | null => {
    if (res.statusCode >= 500) return `status ${res.statusCode}: ${res.body.slice(0, 200)}`;
    if (res.statusCode < 400) return null;
    try {
      const body = JSON.parse(res.body);
      if (typeof body?.error?.code === 'string' && typeof body.error.message === 'string' && body.error.message) {
        if (ERROR_STATUS[body.error.code as ErrorCode] !== res.statusCode) return `status ${res.statusCode} with code ${body.error.code}`;
        const messages: string[] = [body.error.message, ...Object.values((body.error.fields ?? {}) as Record<string, string>)];
        const raw = messages.find((m) => RAW_ZOD.test(m));
        return raw ? `status ${res.statusCode} with zod's own wording: ${raw}` : null;
      }
    } catch {
      // not JSON
    }
    return `status ${res.statusCode} without the error shape: ${res.body.slice(0, 200)}`;
  };

  // Some 45,000 requests one after the other: ~80 s of CPU alone, over 240 s while CI's other suites
  // share the cores.
  it(`sends at least ${PER_ROUTE} generated hostile requests to every API route`, { timeout: 900_000 }, async () => {
    const api = routes.filter((r) => r.url.startsWith('/api/') && !SKIP.has(`${r.method} ${r.url}`));
    expect(api.length).toBeGreaterThan(60);
    // The schemas were found: most routes with a body or a query have named fields.
    expect(api.filter((r) => r.body.length || r.query.length).length).toBeGreaterThan(25);
    // One example per route and status, so a single bug does not hide the others.
    const failures = new Map<string, string>();
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const route of api) {
      const cookie = route.url.startsWith('/api/admin/') ? admin : member;
      for (const c of casesFor(route, PER_ROUTE)) {
        sent++;
        const res = await t.request({
          method: route.method as 'GET',
          url: c.path,
          cookie,
          headers: { origin: TEST_ORIGIN, ...(c.payload !== undefined ? { 'content-type': c.contentType ?? 'application/json' } : {}) },
          ...(c.payload !== undefined ? { payload: c.payload } : {}),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const p = problem(res);
        const key = `${route.method} ${route.url} ${res.statusCode}`;
        if (p && !failures.has(key)) failures.set(key, `${route.method} ${c.path.slice(0, 160)} ${c.payload?.slice(0, 120) ?? ''} → ${p}`);
      }
    }
    expect(sent).toBeGreaterThanOrEqual(api.length * PER_ROUTE);
    // The requests got past the guards to the validation and the handlers, not stuck at a 401 or 429.
    expect(((statuses.get(401) ?? 0) + (statuses.get(429) ?? 0)) / sent).toBeLessThan(0.1);
    expect([...failures.values()]).toEqual([]);
  });

  it("answers Fastify's own refusals in the error shape", async () => {
    const cases: { name: string; status: number; res: Promise<{ statusCode: number; body: string }> }[] = [
      { name: 'bad URL encoding', status: 400, res: t.request({ method: 'GET', url: '/api/mixers/%E0%A4%A', cookie: member }) },
      {
        name: 'invalid JSON',
        status: 400,
        res: t.request({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, payload: '{"name":' }),
      },
      {
        name: 'empty JSON body',
        status: 400,
        res: t.request({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'application/json' }, payload: '' }),
      },
      {
        name: 'wrong content type',
        status: 415,
        res: t.request({ method: 'POST', url: '/api/contact', headers: { 'content-type': 'text/xml' }, payload: '<x/>' }),
      },
      {
        name: 'body too large',
        status: 413,
        res: t.request({
          method: 'POST',
          url: '/api/contact',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ message: 'x'.repeat(2 * 1024 * 1024) }),
        }),
      },
      {
        name: 'too long a path parameter',
        status: 414,
        res: t.request({ method: 'GET', url: `/api/mixers/${'a'.repeat(1000)}`, cookie: member }),
      },
      {
        name: 'a very long path',
        status: 414,
        res: t.request({ method: 'GET', url: `/api/mixers/${'a'.repeat(5000)}`, cookie: member }),
      },
      {
        name: 'text/plain body',
        status: 415,
        res: t.request({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'hello' }),
      },
      {
        name: 'JSON array body',
        status: 400,
        res: t.request({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '[1,2]' }),
      },
      {
        name: 'missing field',
        status: 400,
        res: t.request({
          method: 'POST',
          url: '/api/interest-suggestions',
          cookie: member,
          headers: { origin: TEST_ORIGIN, 'content-type': 'application/json' },
          payload: '{"name":"x"}',
        }),
      },
    ];
    const seen: Record<string, { statusCode: number; body: string }> = {};
    for (const c of cases) {
      const res = await c.res;
      seen[c.name] = res;
      expect(res.statusCode, c.name).toBe(c.status);
      expect(problem(res), c.name).toBeNull();
      expect(res.body, c.name).not.toMatch(/FST_|Unsupported Media Type:|5MB/);
    }
    expect(JSON.parse(seen['a very long path'].body).error).toEqual({ code: 'uri_too_long', message: 'This address is too long.' });
    expect(JSON.parse(seen['text/plain body'].body).error.message).toBe('Please send this request as JSON.');
    expect(JSON.parse(seen['JSON array body'].body).error.message).toBe('Please send this request as JSON.');
    expect(JSON.parse(seen['missing field'].body).error.fields).toEqual({ interests: 'This field is required.' });
  });

  it('answers over-long paths 414 with the matching code when the SPA wildcard is served too', async () => {
    const clientDir = mkdtempSync(nodePath.join(tmpdir(), 'fancy-client-'));
    writeFileSync(nodePath.join(clientDir, 'index.html'), '<!doctype html><title>Fancy</title>');
    const app = await buildApp({ ...t.deps, clientDir });
    try {
      for (const url of [
        `/api/mixers/${'a'.repeat(5000)}`,
        `/api/mixers/${'a'.repeat(1000)}`,
        `/${'a'.repeat(5000)}`,
        `/mixers/${'b'.repeat(300)}`,
      ]) {
        const res = await app.inject({ method: 'GET', url, headers: { cookie: member } });
        expect(res.statusCode, url.slice(0, 30)).toBe(414);
        expect(res.json().error, url.slice(0, 30)).toEqual({ code: 'uri_too_long', message: 'This address is too long.' });
      }
      // Deep links and assets still work.
      expect((await app.inject({ method: 'GET', url: '/mixers/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/missing.js' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('answers headers that are too large in the error shape', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const res = await new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ port, host: '127.0.0.1', path: '/api/health', headers: { 'x-big': 'x'.repeat(64 * 1024) } });
      req.on('response', (r) => {
        let body = '';
        r.on('data', (d) => {
          body += d;
        });
        r.on('end', () => resolve({ statusCode: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(431);
    expect(problem(res)).toBeNull();
    expect(JSON.parse(res.body).error.code).toBe('headers_too_large');
  });
});
