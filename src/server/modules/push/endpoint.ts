/**
 * Where this server may POST a push (issue 32, decision 021). An endpoint is a URL a browser
 * gave, so it is judged twice: by name when registered and again before every send (the list
 * may have changed, and rows stored before the list existed are still there), and by address
 * before every send: the name is resolved, every answer must be a public unicast address, and
 * the request goes to exactly the address that was checked.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { PUSH_MESSAGES } from '../../../shared/schemas/push';
import { AppError } from '../../http/errors';
import { type HostResolver, ipLiteral, pinnedLookup, type ResolvedAddress, resolvePublic } from '../../lib/public-address';

/**
 * The push services browsers subscribe with: Chrome/Edge-on-Android (Google FCM), Firefox
 * (Mozilla autopush), Safari (Apple Web Push) and Edge on Windows (WNS). `*.` means any name
 * below that domain. Operators add more with PUSH_SERVICE_HOSTS.
 */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  '*.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
] as const;

export interface EndpointPolicy {
  production: boolean;
  /** PUSH_SERVICE_HOSTS from the configuration, already normalised. */
  extraHosts: readonly string[];
}

/** Lower case, without the brackets of an IPv6 literal and without trailing dots (`localhost.` is `localhost`). */
export function normaliseHost(host: string): string {
  const lower = host.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.replace(/\.+$/, '');
}

/** `host` is `pattern`, or for `*.domain` a name below `domain` (not `domain` itself). Both normalised. */
export function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** Loopback names the test/dev stand-in listens on; accepted only outside production. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * Checks an endpoint by its text and returns it with the host normalised. Production: https on
 * port 443 to one of the push services (built-in or configured), no credentials. Outside
 * production the loopback stand-in (http or https, any port, on localhost/127.0.0.1/::1) is
 * accepted too. Everything else is a 400 with the same message.
 */
export function checkPushEndpoint(endpoint: string, policy: EndpointPolicy): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  }
  if (url.username || url.password || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  }
  const host = normaliseHost(url.hostname);
  // Empty labels (`a..b`) are no host a push service has.
  if (!host || host.split('.').some((label) => !label)) throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  if (!policy.production && LOOPBACK_NAMES.has(host)) return withHost(url, host);
  const listed = !ipLiteral(host) && [...PUSH_SERVICE_HOSTS, ...policy.extraHosts].some((pattern) => hostMatches(host, pattern));
  // `url.port` is '' for the scheme's default: https on anything but 443 is refused.
  if (url.protocol !== 'https:' || url.port !== '' || !listed) throw new AppError('validation', PUSH_MESSAGES.badEndpoint);
  return withHost(url, host);
}

function withHost(url: URL, host: string): URL {
  const out = new URL(url.href);
  out.hostname = ipLiteral(host)?.includes(':') ? `[${host}]` : host;
  return out;
}

/**
 * The address to send an endpoint's push to: its host resolved with `resolver`, refused (an
 * `InsideAddressError`) when any answer is private, loopback, link-local, unique-local, mapped,
 * CGNAT, multicast or reserved. Loopback is allowed outside production only (the stand-in).
 */
export function resolvePushTarget(url: URL, policy: EndpointPolicy, resolver: HostResolver): Promise<ResolvedAddress> {
  return resolvePublic(normaliseHost(url.hostname), resolver, { allowLoopback: !policy.production });
}

/**
 * POSTs a push request to `url`, connecting to `target` (the checked address) and nowhere else:
 * no DNS lookup of its own, no redirects followed, a fresh connection each time (no pooled
 * socket chosen by name), 10 s at most. Resolves with the push service's status code.
 */
export function postPinned(
  url: URL,
  target: ResolvedAddress,
  init: { method: string; headers: Record<string, string>; body: Buffer },
): Promise<number> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: url.protocol,
        hostname: normaliseHost(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers: init.headers,
        lookup: pinnedLookup(target),
        agent: false,
        signal: AbortSignal.timeout(10_000),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
