/**
 * A Web Push service stand-in on loopback (issue 20): it accepts what a real push service
 * accepts — a VAPID-signed (RFC 8292) POST of an aes128gcm-encrypted body (RFC 8291) — checks
 * the JWT's signature, audience and expiry against the `k=` key, and decrypts the payload with
 * the subscriber's own private key and auth secret, exactly as the browser would.
 */
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error http_ece ships no types
import ece from 'http_ece';

export interface ReceivedPush {
  path: string;
  payload: Record<string, unknown>;
  claims: { aud: string; exp: number; sub: string };
  vapidKey: string;
  ttl: string | undefined;
  urgency: string | undefined;
}

export interface PushServiceStandIn {
  /** A fresh browser-like subscription (own P-256 key pair and auth secret) on this service. */
  subscription(): { endpoint: string; keys: { p256dh: string; auth: string } };
  received: ReceivedPush[];
  /** Failures of checks (bad signature, undecryptable body): each answered 400. */
  rejected: string[];
  /** Answer this status for an endpoint path from now on (e.g. 410 Gone). */
  answer(path: string, status: number): void;
  url: string;
  close(): Promise<void>;
}

const b64 = (s: string) => Buffer.from(s, 'base64url');

/** Verifies an ES256 JWT against a raw (uncompressed point) P-256 public key. */
function verifyJwt(jwt: string, rawKey: Buffer): { aud: string; exp: number; sub: string } {
  const [h, p, sig] = jwt.split('.');
  const header = JSON.parse(b64(h).toString());
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: rawKey.subarray(1, 33).toString('base64url'), y: rawKey.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, b64(sig));
  if (!ok) throw new Error('bad VAPID signature');
  return JSON.parse(b64(p).toString());
}

export async function startPushService(opts: { vapidPublicKey?: string } = {}): Promise<PushServiceStandIn> {
  const subscribers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string }>();
  const statuses = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const rejected: string[] = [];
  let base = '';

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const fail = (why: string) => {
        rejected.push(why);
        res.writeHead(400).end(why);
      };
      const status = statuses.get(path);
      if (status) return void res.writeHead(status).end();
      const sub = subscribers.get(path);
      if (!sub) return void res.writeHead(404).end();
      if (req.method !== 'POST') return fail(`method ${req.method}`);
      const authz = String(req.headers.authorization ?? '');
      const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authz);
      if (!m) return fail(`authorization ${authz}`);
      if (opts.vapidPublicKey && m[2] !== opts.vapidPublicKey) return fail('unexpected VAPID key');
      let claims: ReceivedPush['claims'];
      try {
        claims = verifyJwt(m[1], b64(m[2]));
      } catch (err) {
        return fail((err as Error).message);
      }
      if (claims.aud !== base) return fail(`aud ${claims.aud}`);
      if (!(claims.exp * 1000 > Date.now()) || claims.exp * 1000 > Date.now() + 24 * 3600_000) return fail('exp');
      if (!/^(mailto:|https:)/.test(claims.sub)) return fail('sub');
      if (req.headers['content-encoding'] !== 'aes128gcm') return fail(`encoding ${req.headers['content-encoding']}`);
      let payload: Record<string, unknown>;
      try {
        const plain: Buffer = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth });
        payload = JSON.parse(plain.toString('utf8'));
      } catch (err) {
        return fail(`decrypt: ${(err as Error).message}`);
      }
      received.push({
        path,
        payload,
        claims,
        vapidKey: m[2],
        ttl: req.headers.ttl as string | undefined,
        urgency: req.headers.urgency as string | undefined,
      });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    received,
    rejected,
    subscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      const path = `/push/${randomBytes(8).toString('hex')}`;
      subscribers.set(path, { ecdh, auth });
      return { endpoint: `${base}${path}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
    },
    answer(path, status) {
      statuses.set(path, status);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
