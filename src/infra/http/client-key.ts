import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a request's address stands for, as rate limits count it: an IPv4 address as it is,
 * an IPv6 address by its /64, and an IPv4-mapped IPv6 address (`::ffff:203.0.113.7`, what a
 * dual-stack socket reports for an IPv4 peer) as the IPv4 address. A /64 is the smallest block an
 * IPv6 site is given, and one host can use any of its 2^64 addresses: keyed by the full address, a
 * single machine would have unlimited budgets.
 */
export function clientKey(ip: string): string {
  // A zone (`fe80::1%eth0`) names the local interface, not another client.
  const address = ip.split('%')[0] ?? ip;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return ip.toLowerCase();
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6], groups[7]].flatMap((g = 0) => [g >> 8, g & 0xff]).join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    // `::ffff:1.2.3.4` leaves `::ffff:`; `::1.2.3.4` leaves `::`, whose colons are the gap.
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((h) => Number.parseInt(h, 16)) : [];
  const [head, rest] = text.split('::');
  const left = parse(head);
  if (rest === undefined) return [...left, ...tail];
  const right = [...parse(rest), ...tail];
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
