import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { PUSH_MESSAGES } from '../../../shared/schemas/push';
import type { HostResolver } from '../../lib/public-address';
import { checkPushEndpoint, type EndpointPolicy, hostMatches, normaliseHost, postPinned, resolvePushTarget } from './endpoint';

const production: EndpointPolicy = { production: true, extraHosts: [] };
const test: EndpointPolicy = { production: false, extraHosts: [] };

/** A stub DNS: each name answers what the table says; anything else has no address. */
const stubResolver = (table: Record<string, string[]>) =>
  vi.fn<HostResolver>(async (host) => (table[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

/** The name check, then the address check, as a send does. */
async function target(endpoint: string, policy: EndpointPolicy, resolver: HostResolver) {
  return resolvePushTarget(checkPushEndpoint(endpoint, policy), policy, resolver);
}

describe('push endpoints by name (registration and every send)', () => {
  it('production accepts the push services browsers use, on 443 over https, whatever the case or trailing dot', () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:APA91b',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGx3_X',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
      'https://FCM.GoogleAPIs.com./fcm/send/abc',
      'https://fcm.googleapis.com:443/fcm/send/abc',
    ]) {
      expect(checkPushEndpoint(endpoint, production).hostname, endpoint).toMatch(/^[a-z0-9.-]+[a-z]$/);
    }
    expect(checkPushEndpoint('https://FCM.googleapis.com../fcm/send/abc', production).href).toBe('https://fcm.googleapis.com/fcm/send/abc');
  });

  it('production refuses every disguise of an inside host, other ports and anything not on the list', () => {
    for (const endpoint of [
      'https://localhost./',
      'https://localhost/',
      'https://LOCALHOST/',
      'https://foo.localhost/',
      'https://localhost.localdomain/',
      'https://metadata.google.internal./',
      'https://metadata.google.internal/computeMetadata/v1/',
      'https://printer.local./',
      'https://127.0.0.1.nip.io/',
      'https://127.0.0.1/',
      'https://127.1/',
      'https://0x7f000001/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.1/push',
      'https://100.64.0.1/push',
      'https://[fc00::1]/push',
      'https://[fe80::1]/push',
      'https://fcm.googleapis.com:6379/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://user:pw@fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/fcm/send/abc',
      'https://evilfcm.googleapis.com/fcm/send/abc',
      'https://push.apple.com/', // the domain of a `*.` entry is not below it
      'https://a..push.apple.com/',
      'https://push.example.com/x',
      'ftp://fcm.googleapis.com/x',
      'not a url',
    ]) {
      expect(() => checkPushEndpoint(endpoint, production), endpoint).toThrow(PUSH_MESSAGES.badEndpoint);
    }
  });

  it('an operator extends the list (PUSH_SERVICE_HOSTS), still on 443 over https only', () => {
    const policy: EndpointPolicy = { production: true, extraHosts: ['push.example.net', '*.push.example.org'] };
    expect(checkPushEndpoint('https://Push.Example.Net./s/1', policy).hostname).toBe('push.example.net');
    expect(checkPushEndpoint('https://eu.push.example.org/s/1', policy).hostname).toBe('eu.push.example.org');
    expect(() => checkPushEndpoint('https://push.example.net:9000/s/1', policy)).toThrow(PUSH_MESSAGES.badEndpoint);
    expect(() => checkPushEndpoint('http://push.example.net/s/1', policy)).toThrow(PUSH_MESSAGES.badEndpoint);
    expect(() => checkPushEndpoint('https://push.example.org/s/1', policy)).toThrow(PUSH_MESSAGES.badEndpoint);
  });

  it('outside production the loopback stand-in is allowed too, and nothing else inside', () => {
    expect(checkPushEndpoint('http://127.0.0.1:40123/push/a', test).port).toBe('40123');
    expect(checkPushEndpoint('http://localhost.:40123/push/a', test).hostname).toBe('localhost');
    expect(checkPushEndpoint('http://[::1]:40123/push/a', test).hostname).toBe('[::1]');
    for (const endpoint of [
      'https://foo.localhost/',
      'http://10.0.0.1/push/x',
      'https://169.254.169.254/latest',
      'https://printer.local/',
    ]) {
      expect(() => checkPushEndpoint(endpoint, test), endpoint).toThrow(PUSH_MESSAGES.badEndpoint);
    }
  });

  it('host names are compared normalised; `*.` matches names below the domain only', () => {
    expect(normaliseHost('LocalHost..')).toBe('localhost');
    expect(normaliseHost('[::FFFF:7F00:1]')).toBe('::ffff:7f00:1');
    expect(hostMatches('web.push.apple.com', '*.push.apple.com')).toBe(true);
    expect(hostMatches('push.apple.com', '*.push.apple.com')).toBe(false);
    expect(hostMatches('evilpush.apple.com', '*.push.apple.com')).toBe(false);
  });
});

describe('push endpoints by address (every send, with a stub resolver)', () => {
  // Names on the (extended) list whose DNS answers point inside: the address check refuses them all.
  const policy: EndpointPolicy = { production: true, extraHosts: ['push.example.net', '*.nip.io'] };
  const inside = [
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.5.4',
    '192.168.1.20',
    '100.64.0.1',
    '100.127.255.254',
    '169.254.169.254',
    '224.0.0.251',
    '240.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:db8::1',
    '2002:7f00:1::1',
  ];

  it('refuses a listed name that resolves to any inside address', async () => {
    for (const address of inside) {
      const resolver = stubResolver({ 'push.example.net': [address] });
      await expect(target('https://push.example.net/s/1', policy, resolver), address).rejects.toThrow(/not a public address/);
    }
  });

  it('refuses the disguises once they get past the name: nip.io, upper case, trailing dots', async () => {
    const resolver = stubResolver({ '127.0.0.1.nip.io': ['127.0.0.1'], 'push.example.net': ['10.0.0.7'] });
    await expect(target('https://127.0.0.1.nip.io/', policy, resolver)).rejects.toThrow(/not a public address/);
    await expect(target('https://PUSH.example.NET./s/1', policy, resolver)).rejects.toThrow(/not a public address/);
    expect(resolver.mock.calls.map(([host]) => host)).toEqual(['127.0.0.1.nip.io', 'push.example.net']);
  });

  it('refuses a name with one inside answer among public ones, and a name with no answer', async () => {
    const resolver = stubResolver({ 'fcm.googleapis.com': ['142.250.180.10', '10.0.0.5'] });
    await expect(target('https://fcm.googleapis.com/fcm/send/x', production, resolver)).rejects.toThrow(/not a public address/);
    await expect(target('https://web.push.apple.com/x', production, resolver)).rejects.toThrow(/no address/);
  });

  it('returns the checked public address to connect to', async () => {
    const resolver = stubResolver({ 'fcm.googleapis.com': ['142.250.180.10'], 'updates.push.services.mozilla.com': ['2620:149:a44::1'] });
    expect(await target('https://FCM.googleapis.com./fcm/send/x', production, resolver)).toEqual({ address: '142.250.180.10', family: 4 });
    expect(await target('https://updates.push.services.mozilla.com/wpush/v2/x', production, resolver)).toEqual({
      address: '2620:149:a44::1',
      family: 6,
    });
    expect(resolver.mock.calls.map(([host]) => host)).toEqual(['fcm.googleapis.com', 'updates.push.services.mozilla.com']);
  });

  it('outside production loopback passes (the stand-in), other inside addresses do not', async () => {
    const resolver = stubResolver({});
    expect(await target('http://127.0.0.1:40123/push/a', test, resolver)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await target('http://[::1]:40123/push/a', test, resolver)).toEqual({ address: '::1', family: 6 });
    // IP literals are their own answer: DNS is never asked.
    expect(resolver).not.toHaveBeenCalled();
    const lan = stubResolver({ 'fcm.googleapis.com': ['192.168.0.10'] });
    await expect(target('https://fcm.googleapis.com/fcm/send/x', test, lan)).rejects.toThrow(/not a public address/);
  });
});

describe('postPinned', () => {
  it('connects to the checked address, never to what the name resolves to, and keeps the name as Host', async () => {
    const seen: { host?: string; url?: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({ host: req.headers.host, url: req.url, body });
        res.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // `.invalid` never resolves (RFC 6761): the request can only arrive through the pinned address.
      const url = new URL(`http://push.invalid:${port}/push/a?x=1`);
      const status = await postPinned(url, { address: '127.0.0.1', family: 4 }, { method: 'POST', headers: {}, body: Buffer.from('hi') });
      expect(status).toBe(201);
      expect(seen).toEqual([{ host: `push.invalid:${port}`, url: '/push/a?x=1', body: 'hi' }]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
