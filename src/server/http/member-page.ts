/**
 * A member page with its first reads in it (issue 19, decision 018): the route's HTML (its
 * chunks named for preloading, `dist/client/routes/<page>.html`) plus, in a
 * `<script type="application/json" id="fancy-data">`, the answers of the page's first API reads
 * (src/shared/route-preload.ts) for this request's cookie. The app takes each answer once instead
 * of asking the server (src/client/lib/api.ts), so a member's own content renders as soon as the
 * code has run: no round trip for the session, then another for the page's data.
 *
 * Each read is the API itself (`inject`: same routes, guards, blocks and visibility rules, same
 * cookie and client address), answered at this instant; a read that does not answer 200 is left
 * out and the app asks for it as before. The page is private: `Cache-Control: no-store`, never
 * shared or stored, and the JSON is escaped so no answer can close the script element.
 *
 * When every read answered and the member is past the gates (signed in, address confirmed,
 * onboarded), the page itself is rendered from those answers too (src/client/ssr.tsx, decision
 * 028) and sent inside `#root`, so it paints before any script runs; the app hydrates it. A
 * render that fails or is slow sends the page without it, as before.
 *
 * A page built this way costs far more than its JSON (issue 32), so the work is shared out: a
 * member has at most SERVER_PAGES_PER_MEMBER pages being built at once and SERVER_PAGES_PACE over
 * time (a signed-out visitor counts by address), and the renderer at most SERVER_RENDERS_AT_ONCE
 * renders waiting or running; past PAGE_REQUESTS_PACE a member's page requests are refused (429,
 * answered after a wait). A page
 * over its member's share is the client-rendered shell at once (no first reads, no render: the app
 * asks for its data itself); a page that finds the renderer busy goes without the render at once.
 * Nothing waits in a queue for a turn.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getSession } from '../auth/session';
import { EMBEDDED_DATA_ID, type RoutePreload, readUrls, SERVER_RENDERER_DIR } from '../../shared/route-preload';
import { negotiateEncoding } from './compress';
import { PaceLimiter, rateLimited } from './rate-limiter';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);
/** Per-request compression: quick settings (the page is built for one request). */
const BROTLI_FAST = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } };

/**
 * JSON made safe inside a `<script>` element: `<`, `>` and `&` as \u escapes (valid in JSON
 * strings, and never outside them), so no value can end the element or open a comment.
 */
export const scriptSafeJson = (json: string) =>
  json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Headers a read is made with: the member's cookie and what the browser would have sent. */
function readHeaders(req: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const name of ['cookie', 'user-agent', 'accept-language'] as const) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}

/** How long a page waits for its server render before it goes without (the app renders it then). */
export const SERVER_RENDER_WAIT_MS = 500;
/** Pages of one member (or one signed-out address) being built at once; more are sent as the shell. */
export const SERVER_PAGES_PER_MEMBER = 2;
/** Renders running or waiting in the renderer (it renders one at a time); more pages go without one. */
export const SERVER_RENDERS_AT_ONCE = 4;
/**
 * Pages with first reads (and a render) built for one member over time: a burst of 20 (tabs
 * opened at once, a few reloads), then one a second; more are sent as the shell. A member moving
 * about the app loads a page from the server only at its start (the app navigates itself), so
 * only a script asking again and again meets it (issue 32: 300 pages at concurrency 30).
 */
export const SERVER_PAGES_PACE = { limit: 20, windowMs: 20_000 };
/**
 * Member-page requests of one member (or one signed-out address), built or not: a burst of 60,
 * then one a second. Past it the answer is a 429, sent after up to TOO_MANY_PAGES_WAIT_MS: a
 * script asking in a loop is slowed to a few requests a second by timers, which cost the server
 * nothing, instead of being answered as fast as it asks (issue 32's flood).
 */
export const PAGE_REQUESTS_PACE = { limit: 60, windowMs: 60_000 };
export const TOO_MANY_PAGES_WAIT_MS = 1000;
export const TOO_MANY_PAGES = 'Too many pages asked for at once. Please wait a moment and try again.';
/** How long a route's HTML file is taken as unchanged before its mtime is looked at again. */
const TEMPLATE_CHECK_MS = 1000;

type Renderer = {
  renderMemberPage(url: string, answers: Record<string, unknown>, cookies: string, renderedAt: number): Promise<string | null>;
};

interface SessionAnswer {
  user?: { emailVerified?: boolean; onboardingComplete?: boolean } | null;
  profile?: { onboardingCompleted?: boolean } | null;
}

/** Whether the member sees the page itself (not the sign-in, the address notice or onboarding: protected-route.tsx). */
function pastTheGates(session: SessionAnswer | undefined): boolean {
  const user = session?.user;
  return Boolean(user?.emailVerified && (user.onboardingComplete || session?.profile?.onboardingCompleted));
}

export function createMemberPageServer(app: FastifyInstance, clientDir: string) {
  const templates = new Map<string, { mtimeMs: number; html: Promise<string>; checkedAt: number }>();
  let loading = false;
  let loaded: Renderer | undefined;
  /** Pages being built per member (or `ip:` address), and renders the renderer has not finished. */
  const building = new Map<string, number>();
  let rendering = 0;
  const shells = new Map<string, { mtimeMs: number; body: Promise<string | Buffer> }>();
  // Date.now looked up at each call (not taken once), so a test can hold the clock.
  const pace = new PaceLimiter(SERVER_PAGES_PACE, () => Date.now());
  const requests = new PaceLimiter(PAGE_REQUESTS_PACE, () => Date.now());

  /**
   * Starts loading the build's renderer (once; ~10 MB at first, ~45 MB once it has rendered every
   * page, so not at start-up: an instance nobody signs in to does without). Loaded once: its
   * chunks import each other by name, so a second copy would not share their state (a rebuilt
   * client takes a restart, as its other files do).
   */
  function warm(): void {
    if (loading) return;
    loading = true;
    const file = path.join(clientDir, SERVER_RENDERER_DIR, 'entry.mjs');
    stat(file)
      .then(() => import(pathToFileURL(file).href) as Promise<Renderer>)
      .then(
        (module) => {
          loaded = module;
        },
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') app.log.warn({ err }, 'the member pages server renderer did not load');
        },
      );
  }

  /**
   * The page's markup from its reads' answers, or undefined (no renderer, the renderer busy, a
   * failure, too slow). `done` settles when the render itself has (a slow one keeps its place in
   * the renderer until then, though the page has gone without it).
   */
  function renderPage(
    req: FastifyRequest,
    url: string,
    answers: Record<string, unknown>,
    renderedAt: number,
  ): { markup: Promise<string | undefined>; done: Promise<unknown> } {
    // Until the renderer has loaded (the first pages after a start), pages go without it.
    warm();
    const module = loaded;
    if (!module || rendering >= SERVER_RENDERS_AT_ONCE) return { markup: Promise.resolve(undefined), done: Promise.resolve() };
    rendering++;
    let render: Promise<string | null>;
    try {
      render = module.renderMemberPage(url, answers, req.headers.cookie ?? '', renderedAt);
    } catch (err) {
      render = Promise.reject(err);
    }
    const done = render.then(
      () => undefined,
      () => undefined,
    );
    void done.then(() => rendering--);
    let timer: NodeJS.Timeout | undefined;
    const markup = Promise.race([
      render,
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), SERVER_RENDER_WAIT_MS);
      }),
    ]).then(
      (html) => html ?? undefined,
      (err: unknown) => {
        req.log.warn({ err, url }, 'member page server render failed');
        return undefined;
      },
    );
    void markup.finally(() => clearTimeout(timer));
    return { markup, done };
  }

  async function template(file: string): Promise<string> {
    return (await templateOf(file)).html;
  }

  /** The route's HTML as built, and the build it is from (its mtime). */
  async function templateOf(file: string): Promise<{ mtimeMs: number; html: string }> {
    const full = path.join(clientDir, 'routes', file);
    const hit = templates.get(file);
    // A page asked for again and again costs no file system call each time (a rebuild shows within a second).
    if (hit && performance.now() - hit.checkedAt < TEMPLATE_CHECK_MS) return { mtimeMs: hit.mtimeMs, html: await hit.html };
    const { mtimeMs } = await stat(full);
    if (hit && hit.mtimeMs === mtimeMs) {
      hit.checkedAt = performance.now();
      return { mtimeMs, html: await hit.html };
    }
    const html = readFile(full, 'utf8');
    templates.set(file, { mtimeMs, html, checkedAt: performance.now() });
    html.catch(() => templates.delete(file));
    return { mtimeMs, html: await html };
  }

  /** The reads' answers as a JSON object text `{ "<url>": <answer>, … }`, and any cookies they set. */
  async function firstReads(req: FastifyRequest, urls: string[], refusable: ReadonlySet<string>) {
    const headers = readHeaders(req);
    const answers = await Promise.all(
      urls.map((url) => app.inject({ method: 'GET', url, headers, remoteAddress: req.ip }).catch(() => undefined)),
    );
    const entries: string[] = [];
    const cookies: string[] = [];
    let refused = 0;
    answers.forEach((res, i) => {
      if (!res) return;
      const setCookie = res.headers['set-cookie'];
      if (setCookie) cookies.push(...(Array.isArray(setCookie) ? setCookie : [String(setCookie)]));
      if (res.statusCode === 403 && refusable.has(urls[i])) refused++;
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode !== 200 || !type.startsWith('application/json') || res.headers['content-encoding']) return;
      entries.push(`${JSON.stringify(urls[i])}:${res.body}`);
    });
    return { json: `{${entries.join(',')}}`, cookies, complete: entries.length + refused === urls.length };
  }

  /** Whose share a page request counts against: the signed-in member, or else the address. */
  async function shareKey(req: FastifyRequest): Promise<string> {
    const session = await getSession(req).catch(() => null);
    return session ? `member:${session.user.id}` : `ip:${req.ip}`;
  }

  async function serveMemberPage(req: FastifyRequest, reply: FastifyReply, route: RoutePreload, id?: string) {
    const key = await shareKey(req);
    const over = requests.take(key);
    if (over > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(over, TOO_MANY_PAGES_WAIT_MS)));
      throw rateLimited(over, TOO_MANY_PAGES);
    }
    const held = building.get(key) ?? 0;
    if (held >= SERVER_PAGES_PER_MEMBER || pace.take(key) > 0) return sendShell(req, reply, route);
    building.set(key, held + 1);
    let work: Promise<unknown> = Promise.resolve();
    try {
      const built = await buildPage(req, route, id);
      work = built.done;
      return await send(req, reply, built.page, built.cookies);
    } finally {
      // The member's place is theirs until their page's render has finished, sent or not.
      void work.then(() => {
        const left = (building.get(key) ?? 1) - 1;
        if (left > 0) building.set(key, left);
        else building.delete(key);
      });
    }
  }

  async function buildPage(req: FastifyRequest, route: RoutePreload, id?: string) {
    const urls = readUrls(route, id);
    const refusable = new Set(readUrls({ ...route, reads: route.refusable ?? [] }, id));
    const [html, reads] = await Promise.all([template(route.file), firstReads(req, urls, refusable)]);
    const data = `<script type="application/json" id="${EMBEDDED_DATA_ID}">${scriptSafeJson(reads.json)}</script>`;
    let page = html.includes('</body>') ? html.replace('</body>', () => `${data}\n  </body>`) : html + data;
    const answers = reads.complete ? (JSON.parse(reads.json) as Record<string, unknown>) : undefined;
    let done: Promise<unknown> = Promise.resolve();
    // A query string can change what the page reads beyond its first reads: such a page is rendered in the browser.
    if (answers && !req.url.includes('?') && pastTheGates(answers['/api/auth/session'] as SessionAnswer)) {
      const renderedAt = Date.now();
      const render = renderPage(req, req.url, answers, renderedAt);
      done = render.done;
      const markup = await render.markup;
      // `data-waiting-for-app` until the app has taken over: links work at once, taps on controls
      // and submits are held and given to the app then (public/early-taps.js, decision 038).
      // `data-ssr` is the instant the page was rendered as of: the app hydrates it as of then too.
      if (markup)
        page = page.replace('<div id="root"></div>', () => `<div id="root" data-ssr="${renderedAt}" data-waiting-for-app>${markup}</div>`);
    }
    return { page, cookies: reads.cookies, done };
  }

  function privateHtml(reply: FastifyReply) {
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('vary', 'accept-encoding, cookie');
  }

  async function send(req: FastifyRequest, reply: FastifyReply, body: string, cookies: string[]) {
    for (const cookie of cookies) reply.header('set-cookie', cookie);
    privateHtml(reply);
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    if (!encoding) return reply.send(body);
    const compressed = encoding === 'br' ? await brotli(body, BROTLI_FAST) : await gz(body, { level: 6 });
    return reply.header('content-encoding', encoding).send(compressed);
  }

  /** The page as the app renders it itself (no first reads, no render), compressed once per build. */
  async function sendShell(req: FastifyRequest, reply: FastifyReply, route: RoutePreload) {
    const { mtimeMs, html } = await templateOf(route.file);
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    privateHtml(reply);
    if (!encoding) return reply.send(html);
    const key = `${encoding}:${route.file}`;
    let hit = shells.get(key);
    if (!hit || hit.mtimeMs !== mtimeMs) {
      hit = { mtimeMs, body: encoding === 'br' ? brotli(html) : gz(html, { level: 9 }) };
      shells.set(key, hit);
      hit.body.catch(() => shells.delete(key));
    }
    return reply.header('content-encoding', encoding).send(await hit.body);
  }

  /** Serves a member page; `warm()` starts loading the renderer ahead of the first one (a visitor is about). */
  return Object.assign(serveMemberPage, { warm });
}
