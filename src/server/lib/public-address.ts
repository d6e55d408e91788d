/**
 * Outbound connections to addresses members give (push endpoints, issue 32): the host is
 * resolved here, every address it resolves to must be a public unicast one, and the connection
 * is made to exactly the address that was checked (`pinnedLookup`), so a second DNS answer
 * cannot slip an inside address in between (DNS rebinding). The resolver is a parameter: tests
 * pass a stub.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → every address it resolves to (the system resolver by default; tests pass a stub). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** IPv4 ranges that are not public unicast (IANA special-purpose registry). */
const IPV4_NOT_PUBLIC: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (shared address space)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/**
 * IPv6: only global unicast (2000::/3) is considered at all, which already leaves out the
 * unspecified and loopback addresses, IPv4-mapped and -compatible addresses (::ffff:0:0/96,
 * ::/96), unique-local (fc00::/7), link-local (fe80::/10), site-local and multicast (ff00::/8).
 * Inside 2000::/3, these are not public either (or embed an IPv4 address that could be inside).
 */
const IPV6_NOT_PUBLIC: [string, number][] = [
  ['64:ff9b::', 96], // NAT64 (outside 2000::/3, listed for clarity)
  ['2001::', 23], // IETF protocol assignments (Teredo 2001::/32, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds an IPv4 address)
  ['3fff::', 20], // documentation
];

const notPublic = new BlockList();
for (const [net, prefix] of IPV4_NOT_PUBLIC) notPublic.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of IPV6_NOT_PUBLIC) notPublic.addSubnet(net, prefix, 'ipv6');
const globalUnicast6 = new BlockList();
globalUnicast6.addSubnet('2000::', 3, 'ipv6');
// Separate lists: a BlockList's IPv4 rule also matches the IPv4-mapped IPv6 form, and the
// loopback allowance is for 127.0.0.0/8 and ::1 as such, never ::ffff:127.0.0.1.
const loopback4 = new BlockList();
loopback4.addSubnet('127.0.0.0', 8, 'ipv4');
const loopback6 = new BlockList();
loopback6.addAddress('::1', 'ipv6');

/** A literal IP address (IPv6 with or without brackets), or undefined for a name. */
export function ipLiteral(host: string): string | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isIP(bare) ? bare : undefined;
}

/**
 * Whether the server may connect to this address: public unicast only. `allowLoopback` (never
 * in production) lets 127.0.0.0/8 and ::1 through for a loopback stand-in in tests and dev.
 */
export function isPublicAddress(address: string, opts: { allowLoopback?: boolean } = {}): boolean {
  const version = isIP(address);
  // Zone ids (fe80::1%eth0) name an interface: never a public address.
  if (version === 0 || address.includes('%')) return false;
  const type = version === 4 ? 'ipv4' : 'ipv6';
  if (opts.allowLoopback && (type === 'ipv4' ? loopback4 : loopback6).check(address, type)) return true;
  if (type === 'ipv6' && !globalUnicast6.check(address, 'ipv6')) return false;
  return !notPublic.check(address, type);
}

export class InsideAddressError extends Error {}

/**
 * Resolves `host` (a literal is its own answer) and returns the address to connect to. Refused
 * when nothing answers or when any answer is not public: a name that mixes inside and outside
 * answers is not trusted with either.
 */
export async function resolvePublic(
  host: string,
  resolver: HostResolver,
  opts: { allowLoopback?: boolean } = {},
): Promise<ResolvedAddress> {
  const literal = ipLiteral(host);
  const answers: ResolvedAddress[] = literal ? [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }] : await resolver(host);
  if (!answers.length) throw new InsideAddressError(`${host} has no address`);
  const inside = answers.find((a) => !isPublicAddress(a.address, opts));
  if (inside) throw new InsideAddressError(`${host} resolves to ${inside.address}, which is not a public address`);
  return answers[0];
}

/**
 * A `lookup` for http(s).request/net.connect that answers with the address already checked and
 * never asks DNS again. (A literal IP host skips `lookup`; it is then the checked address itself.)
 */
export function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
