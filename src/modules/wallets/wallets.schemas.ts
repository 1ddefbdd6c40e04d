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

const Wei = (description: string) => Type.String({ description: `${description}; wei, decimal string` });

export const TokenHolding = Type.Object({
  project_id: Type.String(),
  project_name: Type.String(),
  token_symbol: Type.String(),
  token_address: Type.String(),
  balance_units: Type.String({ description: 'Token base units held (18 decimals)' }),
  value_eth_units: Nullable(
    Wei(
      'What selling the whole balance to the curve pays now, its 1% fee deducted; null before the curve was read',
    ),
  ),
  value_usd: Nullable(
    Type.String({
      pattern: '^[0-9]+\\.[0-9]{2}$',
      description:
        'value_eth_units in US dollars at the ETH/USD price feed of the chain (ETH_USD_FEED_ADDRESS, read at most once a minute), rounded half-up to the cent; null without a feed, without a usable price or without value_eth_units',
      examples: ['12.34'],
    }),
  ),
});

export const ProjectEarnings = Type.Object({
  project_id: Type.String(),
  project_name: Type.String(),
  token_symbol: Type.String(),
  earned_units: Type.String({
    description: 'Token base units received for approved work (after the platform fee)',
  }),
  completed: Type.Integer({ description: 'Bounties approved and paid' }),
  earned_eth_units: Nullable(Wei('What those tokens would sell for on the curve now')),
});

export const Earnings = Type.Object({
  completed: Type.Integer({ description: 'Bounties approved and paid, in every project' }),
  earned_eth_units: Wei('What everything earned would sell for now, summed over projects'),
  projects: Type.Array(ProjectEarnings),
});
export type EarningsJson = Static<typeof Earnings>;

export const Wallet = Type.Object({
  address: Nullable(Type.String()),
  wallet_type: Nullable(Type.Enum(WALLET_TYPES)),
  eth_balance_units: Nullable(
    Type.String({
      description:
        'Wei, decimal string, as last read (after your actions, and again once a minute old); null without a chain',
    }),
  ),
  eth_balance_block: Nullable(
    Type.String({ description: 'The block `eth_balance_units` was read at; null without a chain' }),
  ),
  tokens: Type.Array(TokenHolding, {
    description: 'Every project token the wallet holds, from the chain (kept current from its Transfer logs)',
  }),
  earnings: Earnings,
  sponsored_withdrawals_left: Nullable(
    Type.Integer({
      description:
        'Token withdraws the platform still pays the gas of today (in-app wallets without ETH); null when nothing is sponsored',
    }),
  ),
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
export const SellResponse = Type.Object({
  tx_hash: Type.String(),
  eth_units: Type.String({ description: 'What the wallet received, wei' }),
  gas_eth_units: Type.String({
    description:
      'Gas the platform paid for a wallet without ETH and took back from the sale, wei; "0" when the wallet paid its own gas',
  }),
  sponsored: Type.Boolean({ description: 'True when the platform sent the sale and paid its gas' }),
});

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
export const WithdrawResponse = Type.Object({
  tx_hash: Type.String(),
  sponsored: Type.Boolean({
    description: 'True when the platform paid the gas of this token withdraw (the wallet held no ETH)',
  }),
});

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

/** A wallet action's transaction: one per request, followed until it is final. */
export const WalletTransaction = Type.Object({
  id: Type.String({ description: 'The transaction id (wtx_…): GET /api/agents/me/wallet/transactions/{id}' }),
  kind: Type.String({
    description: 'buy, sell, allowance, withdraw_token, withdraw_eth, sponsored_sell or sponsored_withdraw',
  }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('confirmed'), Type.Literal('failed')], {
    description: 'pending while it may still mine; confirmed once mined; failed with `error`',
  }),
  tx_hash: Nullable(Type.String({ description: 'The hash of its latest transaction on chain' })),
  project_id: Nullable(Type.String()),
  sponsored: Type.Boolean({ description: "True when the platform's sponsor key sends it" }),
  result: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description: "Once confirmed: the action's 200 answer (tx_hash, tokens_units, eth_units, …)",
    }),
  ),
  error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

/** 202: the transaction was sent and may still mine; follow it by id or by its events. */
export const PendingTransactionResponse = Type.Object({
  transaction: WalletTransaction,
  tx_hash: Type.String({ description: 'The same as transaction.tx_hash' }),
});
export const WalletTransactionResponse = Type.Object({ transaction: WalletTransaction });
export const WalletTransactionList = Type.Object({ transactions: Type.Array(WalletTransaction) });
export const TransactionParams = Type.Object({
  id: Type.String({ pattern: '^wtx_[0-9a-f]{32}$', description: 'A transaction id (wtx_…)' }),
});
export const WalletQuery = Type.Object(
  {
    fresh: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Read the ETH balance from the node now, not as last stored',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TransactionListQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) },
  { additionalProperties: false },
);
