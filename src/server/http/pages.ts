/**
 * The HTML the server sends, and what crawlers read (issue 20, decision 021): every page of the
 * shared route table answers 200 with the app (the signed-out ones with their build-time HTML,
 * decision 015) and Open Graph / Twitter card tags; any other path answers 404 with the app's
 * not-found page. Also robots.txt, sitemap.xml and security.txt (RFC 9116).
 *
 * Nothing from the address is written into a page: a campaign link previews with the label an
 * admin gave its code (looked up), never a `label` parameter or an unknown code; every value
 * written is escaped. Pages are built once per file version (and campaign) and kept with their
 * brotli and gzip copies.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PRERENDERED_PAGES } from '../../shared/prerendered';
import { type AppRoute, matchRoute, SITEMAP_PATHS } from '../../shared/routes';
import { errorBody } from './errors';
import { type Encoding, negotiateEncoding } from './compress';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const SITE_DESCRIPTION =
  'Meet people in small themed group chats instead of swiping. Fancy someone privately; when it’s mutual, a chat opens.';
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630, alt: 'Fancy — small themed group chats, no swiping' };
/** security.txt must expire within a year (RFC 9116 §2.5.5): this far after the server started. */
const SECURITY_TXT_DAYS = 180;

/** Titles and descriptions of the signed-out pages (the link previews). */
const PAGE_META: Partial<Record<AppRoute, { title: string; description: string }>> = {
  '/': { title: 'Fancy', description: SITE_DESCRIPTION },
  '/auth/register': {
    title: 'Create your account · Fancy',
    description: 'Join Fancy free: pick a themed mixer, chat with 4–8 people, and fancy someone privately.',
  },
  '/auth/login': { title: 'Log in · Fancy', description: 'Log in to Fancy to see your mixers, matches and messages.' },
  '/terms': { title: 'Terms & Conditions · Fancy', description: 'The terms for using Fancy.' },
  '/privacy': { title: 'Privacy Policy · Fancy', description: 'How Fancy collects, uses and protects your information.' },
  '/contact-support': {
    title: 'Contact support · Fancy',
    description: 'Questions, problems or feedback? Get in touch with the Fancy team.',
  },
  '/campaign': { title: 'Welcome to Fancy', description: SITE_DESCRIPTION },
};

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for an HTML attribute or element. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

interface HeadMeta {
  title: string;
  description: string;
  /** Absolute canonical URL; undefined for pages not to be indexed. */
  url?: string;
  index: boolean;
}

/** The <head> additions: canonical, Open Graph, Twitter card (all escaped), or noindex. */
export function headTags(meta: HeadMeta, publicUrl: string): string {
  const e = escapeHtml;
  if (!meta.index) return '<meta name="robots" content="noindex" />';
  const image = `${publicUrl}${OG_IMAGE.path}`;
  return [
    meta.url ? `<link rel="canonical" href="${e(meta.url)}" />` : '',
    '<meta property="og:type" content="website" />',
    '<meta property="og:site_name" content="Fancy" />',
    '<meta property="og:locale" content="en_GB" />',
    `<meta property="og:title" content="${e(meta.title)}" />`,
    `<meta property="og:description" content="${e(meta.description)}" />`,
    meta.url ? `<meta property="og:url" content="${e(meta.url)}" />` : '',
    `<meta property="og:image" content="${e(image)}" />`,
    `<meta property="og:image:width" content="${OG_IMAGE.width}" />`,
    `<meta property="og:image:height" content="${OG_IMAGE.height}" />`,
    `<meta property="og:image:alt" content="${e(OG_IMAGE.alt)}" />`,
    '<meta name="twitter:card" content="summary_large_image" />',
    `<meta name="twitter:title" content="${e(meta.title)}" />`,
    `<meta name="twitter:description" content="${e(meta.description)}" />`,
    `<meta name="twitter:image" content="${e(image)}" />`,
    `<meta name="twitter:image:alt" content="${e(OG_IMAGE.alt)}" />`,
  ]
    .filter(Boolean)
    .join('\n    ');
}

/** Puts the tags, title and description into a page built from index.html. */
export function renderHead(html: string, meta: HeadMeta, publicUrl: string): string {
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(meta.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*" \/>/, () => `<meta name="description" content="${escapeHtml(meta.description)}" />`)
    .replace('</head>', () => `    ${headTags(meta, publicUrl)}\n  </head>`);
}

interface Built {
  html: string;
  br: Buffer;
  gzip: Buffer;
}

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    ...SITEMAP_PATHS.map((p) => `Allow: ${p === '/' ? '/$' : p}`),
    'Allow: /assets/',
    'Allow: /og-image.png',
    'Disallow: /api/',
    'Disallow: /admin',
    'Disallow: /home',
    'Disallow: /mixers',
    'Disallow: /matches',
    'Disallow: /messages',
    'Disallow: /modern-love-letters',
    'Disallow: /profile',
    'Disallow: /settings',
    'Disallow: /test-onboarding',
    'Disallow: /dev/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapXml(publicUrl: string): string {
  const urls = SITEMAP_PATHS.map((p) => `  <url><loc>${escapeHtml(`${publicUrl}${p === '/' ? '/' : p}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function securityTxt(contact: string, publicUrl: string, now: Date): string {
  const expires = new Date(now.getTime() + SECURITY_TXT_DAYS * 86_400_000);
  expires.setUTCHours(0, 0, 0, 0);
  return [
    `Contact: ${contact}`,
    `Expires: ${expires.toISOString()}`,
    'Preferred-Languages: en',
    `Canonical: ${publicUrl}/.well-known/security.txt`,
    '',
  ].join('\n');
}

/** robots.txt, sitemap.xml and security.txt: served with or without a client build. */
export function registerCrawlerFiles(app: FastifyInstance) {
  const { publicUrl, securityContact } = app.deps.config;
  const robots = robotsTxt(publicUrl);
  const sitemap = sitemapXml(publicUrl);
  const security = securityTxt(securityContact, publicUrl, new Date());
  const text = (type: string, body: string) => (_req: FastifyRequest, reply: FastifyReply) =>
    reply.type(type).header('cache-control', 'public, max-age=3600').send(body);
  app.get('/robots.txt', text('text/plain; charset=utf-8', robots));
  app.get('/sitemap.xml', text('application/xml; charset=utf-8', sitemap));
  app.get('/.well-known/security.txt', text('text/plain; charset=utf-8', security));
}

const MAX_CAMPAIGN_PAGES = 500;
const CAMPAIGN_CODE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Serves the app's pages from `clientDir`: known routes 200, unknown 404 with the not-found
 * page. Returns the not-found handler's HTML part for app.ts.
 */
export function createPageServer(app: FastifyInstance, clientDir: string) {
  const { publicUrl } = app.deps.config;
  const cache = new Map<string, { mtimeMs: number; built: Promise<Built> }>();

  async function build(wanted: string, key: string, meta: HeadMeta): Promise<Built> {
    let file = wanted;
    let full = path.join(clientDir, file);
    // A build without the prerendered pages (decision 015) serves the plain app page.
    const { mtimeMs } = await stat(full).catch(() => {
      file = 'index.html';
      full = path.join(clientDir, file);
      return stat(full);
    });
    const cacheKey = `${file}|${key}`;
    const hit = cache.get(cacheKey);
    if (hit && hit.mtimeMs === mtimeMs) return hit.built;
    const built = (async () => {
      const html = renderHead(await readFile(full, 'utf8'), meta, publicUrl);
      const params = { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 11 };
      const [br, gzipped] = await Promise.all([brotli(html, { params }), gz(html, { level: 9 })]);
      return { html, br, gzip: gzipped };
    })();
    if (cache.size >= MAX_CAMPAIGN_PAGES + 50) cache.clear();
    cache.set(cacheKey, { mtimeMs, built });
    built.catch(() => cache.delete(cacheKey));
    return built;
  }

  async function send(req: FastifyRequest, reply: FastifyReply, status: number, file: string, key: string, meta: HeadMeta) {
    const page = await build(file, key, meta);
    reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    const encoding: Encoding | undefined = negotiateEncoding(req.headers['accept-encoding']);
    if (encoding) return reply.header('content-encoding', encoding).send(encoding === 'br' ? page.br : page.gzip);
    return reply.send(page.html);
  }

  const fileFor = (route: string) => {
    const prerendered = (PRERENDERED_PAGES as Record<string, { file: string } | undefined>)[route];
    return prerendered ? `prerendered/${prerendered.file}` : 'index.html';
  };

  /** The admin-created label for a campaign code, or undefined (an unknown code previews like any campaign). */
  async function campaignFor(code: unknown): Promise<{ label: string; code: string } | undefined> {
    if (typeof code !== 'string' || !CAMPAIGN_CODE.test(code)) return undefined;
    const result = (await app.deps.database.db.execute(
      sql`select label, code from campaigns where lower(code) = lower(${code}) limit 1`,
    )) as unknown as { rows: { label: string; code: string }[] };
    return result.rows[0];
  }

  /** Answers a GET/HEAD for a page path: the app with its tags, or the not-found page with 404. */
  return async function servePage(req: FastifyRequest, reply: FastifyReply) {
    const pathname = req.url.split('?')[0];
    const route = matchRoute(pathname);
    if (!route) {
      return send(req, reply, 404, 'index.html', '404', { title: 'Page not found · Fancy', description: SITE_DESCRIPTION, index: false });
    }
    const { pattern, kind } = route;
    if (pattern === '/campaign') {
      const campaign = await campaignFor((req.query as Record<string, unknown>)?.code);
      const base = PAGE_META['/campaign'] as { title: string; description: string };
      const meta: HeadMeta = campaign
        ? {
            title: `${campaign.label} · Fancy`,
            description: base.description,
            url: `${publicUrl}/campaign?code=${encodeURIComponent(campaign.code)}`,
            index: true,
          }
        : { ...base, url: `${publicUrl}/campaign`, index: true };
      return send(req, reply, 200, 'index.html', campaign ? `campaign:${campaign.code}:${campaign.label}` : 'campaign', meta);
    }
    const pageMeta = PAGE_META[pattern];
    const meta: HeadMeta =
      kind === 'public' && pageMeta
        ? { ...pageMeta, url: `${publicUrl}${pattern === '/' ? '/' : pattern}`, index: true }
        : { title: 'Fancy', description: SITE_DESCRIPTION, index: kind !== 'member' && kind !== 'admin' && Boolean(pageMeta) };
    return send(req, reply, 200, fileFor(pattern), pattern, meta);
  };
}

/** Not-found answers: JSON for the API, files and other methods; the app's 404 page for the rest. */
export function isPagePath(req: FastifyRequest): boolean {
  const pathname = req.url.split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/assets/')) return false;
  return !/\.[a-z0-9]+$/i.test(pathname);
}

export const notFoundJson = (reply: FastifyReply) => reply.status(404).send(errorBody('not_found', 'Not found.'));
