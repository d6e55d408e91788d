import type { FastifyInstance } from 'fastify';

/**
 * Browser features the app never uses, switched off for the page and anything it embeds. The
 * camera is allowed for the app's own pages only (Get verified's live selfie, decision 022).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=(self)',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/** The app's own WebSocket origin (`/api/realtime`): ws: for http, wss: for https. */
const socketOrigin = (publicUrl: string) => new URL(publicUrl).origin.replace(/^http/, 'ws');

/**
 * The security headers of every response (DESIGN §5), computed once at start-up: helmet 8's
 * defaults with our CSP (no COEP, HSTS and upgrade-insecure-requests in production only), a
 * Permissions-Policy, and connections only to the app's own origin. Styles keep
 * 'unsafe-inline' (docs/decisions/009). helmet rebuilt them on every request, which cost
 * about half of a small JSON read (docs/decisions/005).
 */
export function securityHeaders(opts: { production: boolean; publicUrl: string }): Readonly<Record<string, string>> {
  const csp = [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    ...(opts.production ? ['upgrade-insecure-requests'] : []),
    `connect-src 'self' ${socketOrigin(opts.publicUrl)}`,
  ].join(';');
  return Object.freeze({
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'permissions-policy': PERMISSIONS_POLICY,
    'referrer-policy': 'no-referrer',
    ...(opts.production ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * Adds the headers to every reply (routes, errors, 404s, static files) before anything else
 * runs; a route may still override one with `reply.header()`.
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: { production: boolean; publicUrl: string }) {
  const headers = securityHeaders(opts);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
