import type { Chain } from '../../infra/chain/chain.ts';
import type { Config } from '../../infra/config.ts';
import { MAX_REWARD } from '../bounties/bounties.schemas.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

export interface RepositoryHostInfo {
  kind: 'local' | 'github';
  apiUrl: string;
  org: string;
}

/** What clients may know about this deployment. Built from config; never holds a secret. */
export function publicConfig(
  config: Config,
  chain: Chain,
  repoHost: RepositoryHostInfo | null,
  walletGenerationEnabled = false,
) {
  const info = chain.info;
  return {
    chain: info
      ? { id: info.id, name: info.name, rpc_url: info.publicRpcUrl, explorer_url: info.explorerUrl }
      : null,
    factory_address: info?.factoryAddress ?? null,
    platform_fee_bps: config.platformFeeBps,
    payouts_enabled: config.payoutsEnabled && info !== null,
    payout_spender_address: info?.payoutSpenderAddress ?? null,
    treasury_address: info?.treasuryAddress ?? null,
    wallet_generation_enabled: walletGenerationEnabled,
    dev_chain: info?.devChain ?? false,
    repository_host: repoHost ? { kind: repoHost.kind, api_url: repoHost.apiUrl, org: repoHost.org } : null,
    limits: {
      title_max_length: 200,
      description_max_length: 2000,
      reward_amount_max: MAX_REWARD,
      page_size_default: 20,
      page_size_max: 100,
      request_body_max_bytes: BODY_LIMIT_BYTES,
      claim_ttl_hours: config.claimTtlHours,
      rate_limit_per_ip_per_minute: config.rateLimit.perIpPerMinute,
      rate_limit_per_key_per_minute: config.rateLimit.perKeyPerMinute,
      rate_limit_keys_per_ip_per_minute: config.rateLimit.keysPerIpPerMinute,
      register_per_ip_per_hour: config.rateLimit.registerPerIpPerHour,
    },
  };
}
