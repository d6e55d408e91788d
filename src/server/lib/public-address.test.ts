import { describe, expect, it } from 'vitest';
import { isPublicAddress, pinnedLookup, resolvePublic } from './public-address';

describe('isPublicAddress', () => {
  it('refuses private, loopback, link-local, unique-local, mapped, CGNAT, multicast, reserved and unspecified ranges', () => {
    for (const address of [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.1',
      '10.255.255.255',
      '100.64.0.1',
      '100.127.255.255',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.88.99.1',
      '192.168.0.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:8.8.8.8',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '100::1',
      '2001::1',
      '2001:db8::1',
      '2002:a00:1::1',
      'fc00::1',
      'fdff:ffff::1',
      'fe80::1',
      'fe80::1%eth0',
      'febf::1',
      'fec0::1',
      'ff02::1',
      'ff0e::1',
      'not-an-address',
      '',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('accepts public unicast addresses', () => {
    for (const address of [
      '8.8.8.8',
      '142.250.180.10',
      '17.253.144.10',
      '100.63.255.255',
      '100.128.0.1',
      '172.32.0.1',
      '2a00:1450:4009:81f::200a',
      '2620:149:a44::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('lets loopback (and only loopback) through when asked, for the stand-in outside production', () => {
    expect(isPublicAddress('127.0.0.1', { allowLoopback: true })).toBe(true);
    expect(isPublicAddress('::1', { allowLoopback: true })).toBe(true);
    expect(isPublicAddress('10.0.0.1', { allowLoopback: true })).toBe(false);
    expect(isPublicAddress('::ffff:127.0.0.1', { allowLoopback: true })).toBe(false);
  });
});

describe('resolvePublic and pinnedLookup', () => {
  it('answers a literal without DNS and pins the connection to the checked address', async () => {
    const never = async () => {
      throw new Error('DNS asked');
    };
    expect(await resolvePublic('[2a00:1450::1]', never)).toEqual({ address: '2a00:1450::1', family: 6 });
    await expect(resolvePublic('169.254.169.254', never)).rejects.toThrow(/not a public address/);

    const lookup = pinnedLookup({ address: '142.250.180.10', family: 4 });
    const one = await new Promise((resolve) => lookup('fcm.googleapis.com', {}, (...args) => resolve(args)));
    expect(one).toEqual([null, '142.250.180.10', 4]);
    const all = await new Promise((resolve) => lookup('fcm.googleapis.com', { all: true }, (...args) => resolve(args)));
    expect(all).toEqual([null, [{ address: '142.250.180.10', family: 4 }]]);
  });
});
