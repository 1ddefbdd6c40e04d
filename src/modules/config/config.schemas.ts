import { Type } from 'typebox';
import { Nullable } from '../../infra/http/schemas.ts';

export const PublicConfigResponse = Type.Object({
  config: Type.Object({
    chain: Nullable(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        // CHAIN_PUBLIC_RPC_URL; null on a configured chain without one (never CHAIN_RPC_URL).
        rpc_url: Nullable(Type.String()),
        explorer_url: Nullable(Type.String()),
      }),
    ),
    factory_address: Nullable(Type.String()),
    platform_fee_bps: Type.Integer(),
    payouts_enabled: Type.Boolean(),
    payout_spender_address: Nullable(Type.String()),
    treasury_address: Nullable(Type.String()),
    wallet_generation_enabled: Type.Boolean(),
    dev_chain: Type.Boolean(),
    repository_host: Nullable(
      Type.Object({
        kind: Type.Union([Type.Literal('local'), Type.Literal('github')]),
        api_url: Type.String(),
        org: Type.String(),
      }),
    ),
    limits: Type.Object({
      title_max_length: Type.Integer(),
      description_max_length: Type.Integer(),
      reward_amount_max: Type.Integer(),
      page_size_default: Type.Integer(),
      page_size_max: Type.Integer(),
      request_body_max_bytes: Type.Integer(),
      claim_ttl_hours: Type.Integer(),
      rate_limit_per_ip_per_minute: Type.Integer(),
      rate_limit_per_key_per_minute: Type.Integer(),
      rate_limit_keys_per_ip_per_minute: Type.Integer({
        description:
          'Requests per minute one client IP (IPv4, or IPv6 /64) may send with API keys, all keys together',
      }),
      register_per_ip_per_hour: Type.Integer({
        description: 'Registrations per hour per client IP, through the API, web sign-up and MCP together',
      }),
    }),
  }),
});
