import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/infra/config.ts';

describe('config', () => {
  it('has working defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.platformFeeBps).toBe(500);
    expect(c.claimTtlHours).toBe(72);
    expect(c.payoutsEnabled).toBe(true);
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('reads every variable it documents', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/x',
      DATABASE_URL: 'postgres://u@h:5432/db',
      PLATFORM_FEE_BPS: '250',
      PAYOUTS_ENABLED: 'false',
      CLAIM_TTL_HOURS: '24',
      REDIS_URL: 'redis://127.0.0.1:6379',
      RATE_LIMIT_PER_IP_PER_MINUTE: '10',
      RATE_LIMIT_PER_KEY_PER_MINUTE: '20',
      RATE_LIMIT_REGISTER_PER_IP_PER_HOUR: '3',
      LOG_LEVEL: 'warn',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/tmp/x',
      databaseUrl: 'postgres://u@h:5432/db',
      platformFeeBps: 250,
      payoutsEnabled: false,
      claimTtlHours: 24,
      redisUrl: 'redis://127.0.0.1:6379',
      rateLimit: { perIpPerMinute: 10, perKeyPerMinute: 20, registerPerIpPerHour: 3 },
      logLevel: 'warn',
    });
  });

  it('caps webhook requests per destination host: 60 a minute unless set, at least 1', () => {
    expect(loadConfig({}).webhookDeliveriesPerHostPerMinute).toBe(60);
    expect(
      loadConfig({ WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: '5' }).webhookDeliveriesPerHostPerMinute,
    ).toBe(5);
    for (const bad of ['0', '-1', 'many']) {
      expect(() => loadConfig({ WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE: bad })).toThrow(
        /WEBHOOK_DELIVERIES_PER_HOST_PER_MINUTE must be a whole number/,
      );
    }
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        PLATFORM_FEE_BPS: '10001',
        DATABASE_URL: 'mysql://x',
        PAYOUTS_ENABLED: 'maybe',
      });
      expect.unreachable('loadConfig accepted a bad environment');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toHaveLength(4);
      for (const name of ['PORT', 'PLATFORM_FEE_BPS', 'DATABASE_URL', 'PAYOUTS_ENABLED']) {
        expect(problems.some((p) => p.startsWith(name))).toBe(true);
      }
    }
  });

  describe('a configured chain', () => {
    const chainEnv = {
      CHAIN_RPC_URL: 'https://rpc.provider.example/v2/secret-key',
      CHAIN_ID: '8453',
      FACTORY_ADDRESS: '0x00000000000000000000000000000000000000F1',
      TREASURY_ADDRESS: '0x00000000000000000000000000000000000000B1',
      OPERATOR_PRIVATE_KEY: `0x${'ab'.repeat(32)}`,
      PAYOUT_PRIVATE_KEY: `0x${'cd'.repeat(32)}`,
    };
    const problemsOf = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
    };

    it('reads CHAIN_PUBLIC_RPC_URL apart from CHAIN_RPC_URL', () => {
      const c = loadConfig({ ...chainEnv, CHAIN_PUBLIC_RPC_URL: 'https://mainnet.base.org' });
      expect(c.chain.publicRpcUrl).toBe('https://mainnet.base.org');
      expect(c.chain.rpcUrl).toBe(chainEnv.CHAIN_RPC_URL);
      expect(loadConfig(chainEnv).chain.publicRpcUrl).toBeUndefined();
      expect(problemsOf({ ...chainEnv, CHAIN_PUBLIC_RPC_URL: 'ftp://x' })).toEqual([
        expect.stringMatching(/^CHAIN_PUBLIC_RPC_URL/),
      ]);
      // The embedded chain publishes its own URL; a public URL for no configured chain is a mistake.
      expect(problemsOf({ CHAIN_PUBLIC_RPC_URL: 'https://mainnet.base.org' })).toEqual([
        expect.stringMatching(/^CHAIN_PUBLIC_RPC_URL/),
      ]);
    });

    it('refuses an operator key equal to the payout key, however it is written', () => {
      const key = 'ab'.repeat(32);
      for (const [operator, payout] of [
        [`0x${key}`, `0x${key}`],
        [key, `0x${key}`],
        [`0x${key.toUpperCase()}`, key],
      ]) {
        const problems = problemsOf({
          ...chainEnv,
          OPERATOR_PRIVATE_KEY: operator as string,
          PAYOUT_PRIVATE_KEY: payout as string,
        });
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(/OPERATOR_PRIVATE_KEY.*PAYOUT_PRIVATE_KEY/);
        expect(problems[0]).not.toContain(key);
      }
      expect(problemsOf(chainEnv)).toEqual([]);
    });

    it('takes a sponsor key of its own, never the operator or payout key', () => {
      for (const taken of [
        chainEnv.OPERATOR_PRIVATE_KEY,
        chainEnv.PAYOUT_PRIVATE_KEY.toUpperCase().replace('0X', ''),
      ]) {
        const problems = problemsOf({ ...chainEnv, SPONSOR_PRIVATE_KEY: taken });
        expect(problems).toEqual([expect.stringMatching(/^SPONSOR_PRIVATE_KEY must be a key of its own/)]);
      }
      const c = loadConfig({
        ...chainEnv,
        SPONSOR_PRIVATE_KEY: `0x${'ef'.repeat(32)}`,
        SPONSORED_WITHDRAWALS_PER_DAY: '0',
      });
      expect(c.chain.sponsorKey).toBe(`0x${'ef'.repeat(32)}`);
      expect(c.sponsor).toEqual({
        withdrawalsPerDay: 0,
        lowBalanceWei: 50_000_000_000_000_000n,
        withdrawMinEthUnits: 500_000_000_000n,
      });
      expect(problemsOf({ ...chainEnv, SPONSOR_LOW_BALANCE_WEI: '0.05' })).toEqual([
        expect.stringMatching(/^SPONSOR_LOW_BALANCE_WEI/),
      ]);
      expect(problemsOf({ ...chainEnv, SPONSORED_WITHDRAW_MIN_ETH_UNITS: '1e12' })).toEqual([
        expect.stringMatching(/^SPONSORED_WITHDRAW_MIN_ETH_UNITS/),
      ]);
    });
  });
});
