import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export const MAX_URL_LENGTH = 2048;

/** Why a target is refused; the message is shown to the agent (registration) or logged (delivery). */
export class UnsafeTargetError extends Error {}

/** Resolves a host name to every address it has (as `dns.lookup(..., { all: true })`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

// Addresses a webhook must never reach from inside the deployment: this host, its private
// networks, cloud metadata (169.254.169.254), carrier NAT, multicast and the reserved ranges.
const v4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", incl. 0.0.0.0 which connects to the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
] as const) {
  v4.addSubnet(net, bits, 'ipv4');
}

// IPv6 outside global unicast (2000::/3) is refused outright: loopback, unspecified, mapped and
// compatible forms (handled below), NAT64, unique local fc00::/7, link-local, multicast.
const v6Global = new BlockList();
v6Global.addSubnet('2000::', 3, 'ipv6');
const v6Special = new BlockList();
for (const [net, bits] of [
  ['2001::', 23], // IETF protocol assignments, incl. Teredo
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  v6Special.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, or 6to4 2002:aabb:ccdd::). */
function embeddedV4(ip: string): string | null {
  const groups = expandV6(ip);
  if (!groups) return null;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeros(5) && groups[5] === 0xffff) return quad(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return quad(groups[1] ?? 0, groups[2] ?? 0);
  return null;
}

/** Eight 16-bit groups, or null when the text is not an IPv6 address. */
function expandV6(ip: string): number[] | null {
  if (isIP(ip) !== 6) return null;
  let text = ip.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)));
  const h = part(head);
  const t = tail === undefined ? [] : part(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  return [...h, ...new Array<number>(fill).fill(0), ...t];
}

/** True for any address a webhook may not target (see the ranges above). */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return v4.check(ip, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedV4(ip);
  if (inner) return v4.check(inner, 'ipv4');
  const bare = ip.split('%')[0] ?? ip;
  return !v6Global.check(bare, 'ipv6') || v6Special.check(bare, 'ipv6');
}

/** Parses and checks the form of a webhook URL; the target addresses are checked by `resolveTarget`. */
export function parseWebhookUrl(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH) throw new UnsafeTargetError(`The URL is longer than ${MAX_URL_LENGTH}.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError('The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UnsafeTargetError('The URL must use http or https.');
  }
  // Credentials in a URL end up in logs and in the list answer; the signature authenticates us.
  if (url.username || url.password) throw new UnsafeTargetError('The URL must not contain credentials.');
  if (!url.hostname) throw new UnsafeTargetError('The URL has no host.');
  return url;
}

/** The host part as a resolver or a socket wants it (IPv6 literals without brackets). */
export const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Every address the URL's host resolves to, refused when any of them is private and private
 * targets are not allowed. The caller connects only to these addresses (see `pinnedLookup`),
 * so a name that resolves differently a moment later (DNS rebinding) cannot switch the target.
 */
export async function resolveTarget(
  url: URL,
  opts: { allowPrivate: boolean; resolve: Resolver },
): Promise<LookupAddress[]> {
  const host = bareHost(url);
  const literal = isIP(host);
  let addresses: LookupAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      addresses = await opts.resolve(host);
    } catch {
      throw new UnsafeTargetError(`The host name ${host} does not resolve.`);
    }
    if (addresses.length === 0) throw new UnsafeTargetError(`The host name ${host} does not resolve.`);
  }
  if (!opts.allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      throw new UnsafeTargetError(
        `The URL's host resolves to ${bad.address}, a private, loopback or reserved address.`,
      );
    }
  }
  return addresses;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for http.request that answers with addresses already resolved and checked, never
 * asking DNS again. Node asks with `all: true` when it races address families.
 */
export function pinnedLookup(addresses: LookupAddress[]) {
  return (_host: string, options: { all?: boolean }, callback: LookupCallback) => {
    const first = addresses[0];
    if (options.all) return callback(null, addresses);
    if (!first) return callback(new Error('no address') as NodeJS.ErrnoException, '');
    callback(null, first.address, first.family);
  };
}
