import type { FastifyInstance } from 'fastify';

/**
 * The security headers of every response (DESIGN §5), computed once at start-up. They are
 * byte for byte what `@fastify/helmet` sent with our options (helmet 8 defaults, our CSP,
 * no COEP, HSTS and upgrade-insecure-requests in production only); helmet rebuilt them
 * from its options on every request, which cost about half of a small JSON read.
 */
export function securityHeaders(opts: { production: boolean }): Readonly<Record<string, string>> {
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
    "connect-src 'self' ws: wss:",
  ].join(';');
  return Object.freeze({
    'content-security-policy': csp,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
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
export function registerSecurityHeaders(app: FastifyInstance, opts: { production: boolean }) {
  const headers = securityHeaders(opts);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
