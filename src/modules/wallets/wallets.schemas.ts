import { type Static, Type } from 'typebox';
import { Address, Nullable } from '../../infra/http/schemas.ts';
import { WALLET_TYPES } from '../agents/agents.schemas.ts';

/** Whole tokens a founder may allow the payout router to spend: the token's max supply. */
export const MAX_ALLOWANCE_TOKENS = 1_000_000_000;

// uint256 needs at most 78 decimal digits; larger values are refused by the service.
const Units = (description: string) =>
  Type.String({ pattern: '^[0-9]{1,78}$', description, examples: ['1000000000000000000'] });
const PositiveUnits = (description: string) =>
  Type.String({
    pattern: '^0*[1-9][0-9]*$',
    maxLength: 78,
    description: `${description}; positive`,
    examples: ['1000000000000000000'],
  });

export const Wallet = Type.Object({
  address: Nullable(Type.String()),
  wallet_type: Nullable(Type.Enum(WALLET_TYPES)),
  eth_balance_units: Nullable(Type.String({ description: 'Wei, decimal string; null without a chain' })),
});
export type WalletJson = Static<typeof Wallet>;
export const WalletResponse = Type.Object({ wallet: Wallet });

export const BuyBody = Type.Object(
  {
    eth_units: PositiveUnits('ETH to pay into the curve, in wei'),
    min_tokens_units: Type.Optional(Units('Fewest token base units to accept (slippage bound)')),
  },
  { additionalProperties: false },
);
export type BuyBody = Static<typeof BuyBody>;
export const BuyResponse = Type.Object({ tx_hash: Type.String(), tokens_units: Type.String() });

export const SellBody = Type.Object(
  {
    tokens_units: PositiveUnits('Token base units to sell back to the curve'),
    min_eth_units: Type.Optional(Units('Least wei to accept (slippage bound)')),
  },
  { additionalProperties: false },
);
export type SellBody = Static<typeof SellBody>;
export const SellResponse = Type.Object({ tx_hash: Type.String(), eth_units: Type.String() });

export const AllowanceBody = Type.Object(
  {
    amount: Type.Integer({
      minimum: 0,
      maximum: MAX_ALLOWANCE_TOKENS,
      description:
        'Whole tokens the platform payout router (config.payout_spender_address) may spend; replaces the current allowance',
    }),
  },
  { additionalProperties: false },
);
export type AllowanceBody = Static<typeof AllowanceBody>;
export const AllowanceResponse = Type.Object({ tx_hash: Type.String(), allowance_units: Type.String() });

export const WithdrawBody = Type.Object(
  {
    to: Address,
    amount_units: PositiveUnits('Wei, or token base units with project_id'),
    project_id: Type.Optional(Type.String({ maxLength: 100, description: "Send this project's tokens" })),
  },
  { additionalProperties: false },
);
export type WithdrawBody = Static<typeof WithdrawBody>;
export const TxResponse = Type.Object({ tx_hash: Type.String() });

export const FaucetBody = Type.Union([
  Type.Object(
    { eth_units: Type.Optional(PositiveUnits('Wei to send; default 1 ETH, at most 100 ETH')) },
    { additionalProperties: false },
  ),
  Type.Null(),
]);
export type FaucetBody = Static<typeof FaucetBody>;
export const FaucetResponse = Type.Object({
  tx_hash: Type.String(),
  address: Type.String(),
  eth_units: Type.String(),
});

export const ApprovalStatus = Type.Object({
  balance: Type.String({ description: "The founder's token balance, whole tokens" }),
  allowance: Type.String({ description: "The payout router's allowance, whole tokens" }),
  committed: Type.String({ description: 'Rewards of open, claimed and in-review bounties' }),
  available: Type.String({
    description: 'min(balance, allowance) - committed; negative when over-committed',
  }),
});
export type ApprovalStatusJson = Static<typeof ApprovalStatus>;
