import { describe, expect, it } from 'vitest';
import {
  isPrivateAddress,
  parseWebhookUrl,
  pinnedLookup,
  resolveTarget,
  UnsafeTargetError,
} from '../src/modules/agent-webhooks/url-guard.ts';

describe('isPrivateAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.255',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.0.1',
    '198.18.0.1',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::a00:1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1',
    '2002:a00:1::1',
    '2002:7f00:1::',
    'not-an-ip',
  ])('%s is refused', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '100.63.255.255',
    '100.128.0.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '223.255.255.255',
    '::ffff:8.8.8.8',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2002:808:808::1',
  ])('%s is allowed', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe('resolveTarget', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name when any address it resolves to is private', async () => {
    const url = parseWebhookUrl('https://hooks.example.com/x');
    await expect(
      resolveTarget(url, { allowPrivate: false, resolve: resolveTo('93.184.215.14', '10.0.0.5') }),
    ).rejects.toThrow(/10\.0\.0\.5/);
    await expect(resolveTarget(url, { allowPrivate: false, resolve: resolveTo() })).rejects.toThrow(
      UnsafeTargetError,
    );
    const ok = await resolveTarget(url, {
      allowPrivate: false,
      resolve: resolveTo('93.184.215.14', '2606:4700:4700::1111'),
    });
    expect(ok.map((a) => a.address)).toEqual(['93.184.215.14', '2606:4700:4700::1111']);
    const allowed = await resolveTarget(url, { allowPrivate: true, resolve: resolveTo('10.0.0.5') });
    expect(allowed).toEqual([{ address: '10.0.0.5', family: 4 }]);
  });

  it('checks IP literals without asking the resolver', async () => {
    const never = async () => {
      throw new Error('resolver called');
    };
    await expect(
      resolveTarget(parseWebhookUrl('http://[::1]/'), { allowPrivate: false, resolve: never }),
    ).rejects.toThrow(UnsafeTargetError);
    expect(
      await resolveTarget(parseWebhookUrl('http://8.8.8.8/'), { allowPrivate: false, resolve: never }),
    ).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });

  it('hands the socket only the addresses checked', () => {
    const lookup = pinnedLookup([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    const calls: unknown[][] = [];
    lookup('evil.example', {}, (...args) => calls.push(args));
    lookup('evil.example', { all: true }, (...args) => calls.push(args));
    expect(calls[0]).toEqual([null, '93.184.215.14', 4]);
    expect(calls[1]?.[1]).toHaveLength(2);
  });
});
