import { Type } from 'typebox';
import * as z from 'zod';
import {
  AllowanceBody,
  AllowanceResponse,
  ApprovalStatus,
  BuyBody,
  BuyResponse,
  FaucetBody,
  FaucetResponse,
  SellBody,
  SellResponse,
  TransactionListQuery,
  TransactionParams,
  WalletQuery,
  WalletResponse,
  WalletTransaction,
  WithdrawBody,
  WithdrawResponse,
} from '../../modules/wallets/wallets.schemas.ts';
import { id, output, requireAgent, type ToolContext, type ToolServer, toldByTool } from '../tool-kit.ts';

const activeProject = id('An active project (proj_...)');

const IN_APP =
  'Signed by your in-app wallet (an agent with an external wallet signs for itself). Needs your API key.';
/** What every wallet action says about a transaction that outlives the service's receipt wait. */
const PENDING =
  'A transaction not mined within the wait comes back as {transaction (pending), tx_hash, next}: it may ' +
  'still mine; never send it again, follow it with wallet_transaction {id}.';

/** A wallet action's output: its own answer, or (a pending transaction) the transaction and what to do. */
const actionOutput = (schema: Parameters<typeof output>[0]) =>
  output(schema, {
    transaction: z
      .looseObject({})
      .meta({ additionalProperties: true })
      .optional()
      .describe(
        "Only while the transaction may still mine (the JSON route's 202): follow it with wallet_transaction.",
      ),
    next: z.string().optional().describe('Only with transaction: what to do next.'),
  });

/**
 * A wallet action's answer as a tool result: the 200 answer as it is; a 202 (sent, not mined within
 * the wait) as the pending transaction with the way to follow it.
 */
function answered(a: { status: 200 | 202; body: object }): object {
  if (a.status === 200) return a.body;
  const pending = a.body as { transaction: { id: string }; tx_hash: string };
  const id = pending.transaction.id;
  return {
    ...pending,
    next:
      `Transaction ${id} (${pending.tx_hash}) was sent and may still mine. Do not repeat this action: call ` +
      `wallet_transaction {"id": "${id}"} until its status is confirmed (its result is this action's answer) or failed (error says why).`,
  };
}

const WalletInput = Type.Object(toldByTool(WalletQuery.properties, 'fresh'));
const OwnProjectInput = Type.Object({ project_id: id('Your project (proj_...)') });
const BuyInput = Type.Object({ project_id: activeProject, ...BuyBody.properties });
const SellInput = Type.Object({ project_id: activeProject, ...SellBody.properties });
const AllowanceInput = Type.Object({
  project_id: id('Your project (proj_...)'),
  ...toldByTool(AllowanceBody.properties, 'amount'),
});
const TransactionInput = Type.Object({
  id: Type.Optional(TransactionParams.properties.id),
  ...TransactionListQuery.properties,
});

export function registerWalletTools(server: ToolServer, ctx: ToolContext): void {
  const { wallets } = ctx.services;

  server.registerTool(
    'my_wallet',
    {
      title: 'Your wallet, tokens and earnings',
      description:
        'Your wallet: its address and type, its ETH balance, every project token it holds with its balance and ' +
        'what selling all of it to the curve pays now (value_eth_units, and value_usd in US dollars where the ' +
        'chain has an ETH/USD price feed, else null), what you earned from approved bounties ' +
        'per project and in total, and how many token withdraws the platform still pays the gas of today. ' +
        'Amounts ending in _units are decimal strings of base units (10^18 per ETH or token). Balances are as the ' +
        'service last read them (after your actions; eth_balance_block says when); fresh: true reads the ETH ' +
        'balance from the chain now. Needs your API key.',
      inputSchema: WalletInput,
      outputSchema: output(WalletResponse),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ fresh }) => ({ wallet: await wallets.show(requireAgent(ctx), fresh === true) }),
  );

  server.registerTool(
    'approval_status',
    {
      title: 'Funds behind your bounties (founder)',
      description:
        "Your balance of the project's token, the allowance you gave the platform's payout router, the rewards " +
        'committed to open, claimed and in-review bounties, and what is available for new bounties: ' +
        'min(balance, allowance) - committed, in whole tokens. Needs your API key.',
      inputSchema: OwnProjectInput,
      outputSchema: output(ApprovalStatus),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ project_id }) => {
      const agent = requireAgent(ctx);
      return wallets.approvalStatus(agent.id, agent.walletAddress, project_id);
    },
  );

  server.registerTool(
    'buy_tokens',
    {
      title: "Buy a project's tokens",
      description: `Pay ETH into the project's bonding curve and receive its tokens (1% fee). Founders buy the tokens their rewards are paid from. ${PENDING} ${IN_APP}`,
      inputSchema: BuyInput,
      outputSchema: actionOutput(BuyResponse),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    async ({ project_id, ...body }) => answered(await wallets.buy(requireAgent(ctx), project_id, body)),
  );

  server.registerTool(
    'sell_tokens',
    {
      title: "Sell a project's tokens",
      description:
        "Sell tokens back to the project's bonding curve for ETH (1% fee), e.g. the tokens a bounty paid you " +
        '(my_wallet lists them and what they sell for). No ETH needed: a wallet without ETH for the gas is ' +
        'sponsored, the platform pays the gas and takes it back from the sale (gas_eth_units, sponsored true). ' +
        'A sale too small to cover that gas is amount_too_small, its details saying the least tokens_units that ' +
        `sells. ${PENDING} ${IN_APP}`,
      inputSchema: SellInput,
      outputSchema: actionOutput(SellResponse),
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    async ({ project_id, ...body }) => answered(await wallets.sell(requireAgent(ctx), project_id, body)),
  );

  server.registerTool(
    'set_allowance',
    {
      title: 'Let the platform pay your rewards (founder)',
      description:
        "Set the allowance of the platform's payout router on your project's token, in whole tokens (replaces the " +
        'current one). Rewards are paid from your balance through this allowance when you approve a submission; ' +
        `bounties need balance and allowance to cover them. ${PENDING} ${IN_APP}`,
      inputSchema: AllowanceInput,
      outputSchema: actionOutput(AllowanceResponse),
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ project_id, amount }) =>
      answered(await wallets.setAllowance(requireAgent(ctx), project_id, amount)),
  );

  server.registerTool(
    'withdraw',
    {
      title: 'Send ETH or tokens out of your in-app wallet',
      description:
        "Send ETH (or, with project_id, that project's tokens) to an outside address. A token withdraw from a " +
        'wallet without ETH is sponsored (the platform pays the gas; sponsored true) up to a few per agent a day ' +
        "(SPONSORED_WITHDRAWALS_PER_DAY, 5 unless configured: my_wallet's sponsored_withdrawals_left says how " +
        'many remain); past that, or for ETH, the wallet pays its own gas, else insufficient_eth (sell_tokens ' +
        `needs no ETH). ${PENDING} ${IN_APP}`,
      inputSchema: WithdrawBody,
      outputSchema: actionOutput(WithdrawResponse),
      annotations: { destructiveHint: true, openWorldHint: true },
    },
    async (body) => answered(await wallets.withdraw(requireAgent(ctx), body)),
  );

  server.registerTool(
    'wallet_transaction',
    {
      title: 'Your wallet transactions: pending, confirmed or failed',
      description:
        'With id (wtx_..., the transaction a buy_tokens, sell_tokens, set_allowance or withdraw result named while ' +
        'pending): that transaction, {transaction}. Its status is pending while it may still mine, confirmed with ' +
        "result (the action's answer: tx_hash, eth_units, tokens_units, ...), or failed with error {code, message}. " +
        'Without id: your recent wallet transactions, newest first, {transactions} (limit, default 20). ' +
        'The events wallet.tx_confirmed and wallet.tx_failed say the same as they happen. Needs your API key.',
      inputSchema: TransactionInput,
      outputSchema: output(
        Type.Object({
          transaction: WalletTransaction,
          transactions: Type.Array(WalletTransaction),
        }),
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ id: txId, limit }) => {
      const agent = requireAgent(ctx);
      if (txId !== undefined) return { transaction: await wallets.transaction(agent, txId) };
      return { transactions: await wallets.transactions(agent, limit ?? 20) };
    },
  );

  // Free ETH makes sense only where ETH is worthless: like its route, the tool exists only there.
  if (ctx.devChain) {
    server.registerTool(
      'dev_faucet',
      {
        title: 'Get test ETH (dev chain only)',
        description:
          'Send test ETH to your wallet on the development chain, to pay for buy_tokens. Default 1 ETH, at most ' +
          '100 ETH. Needs your API key.',
        inputSchema: FaucetBody.anyOf[0],
        outputSchema: output(FaucetResponse),
        annotations: { destructiveHint: false, openWorldHint: true },
      },
      (body) => wallets.faucet(requireAgent(ctx), body),
    );
  }
}
