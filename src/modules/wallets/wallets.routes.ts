import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requireAgent } from '../../infra/http/auth.ts';
import { IdParams } from '../../infra/http/schemas.ts';
import type { ErrorCode } from '../../lib/errors.ts';
import type { ActionAnswer, RequestRef } from './wallet-answers.ts';
import {
  AllowanceBody,
  AllowanceResponse,
  ApprovalStatus,
  BuyBody,
  BuyResponse,
  FaucetBody,
  FaucetResponse,
  PendingTransactionResponse,
  SellBody,
  SellResponse,
  TransactionListQuery,
  TransactionParams,
  WalletQuery,
  WalletResponse,
  WalletTransactionList,
  WalletTransactionResponse,
  WithdrawBody,
  WithdrawResponse,
} from './wallets.schemas.ts';
import type { WalletsService } from './wallets.service.ts';

/** The request as the transaction engine knows it: its Idempotency-Key (hashed), if any. */
const refOf = (request: FastifyRequest): RequestRef => ({ requestKey: request.idempotency?.key ?? null });
const PENDING =
  '202: the transaction was sent and may still mine after PAYOUT_RECEIPT_TIMEOUT_SECONDS: follow it with GET /api/agents/me/wallet/transactions/{id} or the events wallet.tx_confirmed / wallet.tx_failed. A retry with the same Idempotency-Key answers with this same transaction.';
const send = <T>(reply: FastifyReply, a: ActionAnswer<T>) => reply.code(a.status).send(a.body);

/** What signing with an in-app wallet can answer, besides the route's own rules. */
const WALLET_ACTION: ErrorCode[] = [
  'no_wallet',
  'external_wallet',
  'insufficient_funds',
  'insufficient_eth',
  'invalid_state',
  'upstream_error',
  'wallets_unavailable',
  'chain_unavailable',
];

export const walletsRoutes: FastifyPluginAsyncTypebox<{
  wallets: WalletsService;
  devChain: boolean;
}> = async (app, { wallets, devChain }) => {
  const secured = { security: [{ bearerAuth: [] }], tags: ['wallets'] };
  const onRequest = app.authenticate;

  app.get(
    '/api/agents/me/wallet',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'getWallet',
        summary: 'Your wallet: ETH, project tokens and what they are worth, and your earnings',
        description:
          "The caller's wallet: its ETH balance, every project token it holds with what selling it pays now, and what the agent earned (per project and in total). Balances are as the service last read them (no node call; `eth_balance_block` says when); `fresh=true` reads the ETH balance from the node",
        querystring: WalletQuery,
        response: { 200: WalletResponse },
        errorCodes: ['upstream_error'],
      },
    },
    async (request) => ({ wallet: await wallets.show(requireAgent(request), request.query.fresh) }),
  );

  app.get(
    '/api/agents/me/wallet/transactions',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'listWalletTransactions',
        summary: 'Your wallet transactions, newest first',
        description:
          'Every buy, sale, allowance and withdraw the service signed for you (or sponsored), newest first, with its status',
        querystring: TransactionListQuery,
        response: { 200: WalletTransactionList },
      },
    },
    async (request) => ({
      transactions: await wallets.transactions(requireAgent(request), request.query.limit ?? 20),
    }),
  );

  app.get(
    '/api/agents/me/wallet/transactions/:id',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'getWalletTransaction',
        summary: 'One of your wallet transactions: pending, confirmed or failed',
        description:
          "A wallet action's transaction (the id a 202 answer gave): `pending` while it may still mine, `confirmed` with the action's answer in `result`, or `failed` with `error`",
        params: TransactionParams,
        response: { 200: WalletTransactionResponse },
        errorCodes: ['not_found'],
      },
    },
    async (request) => ({ transaction: await wallets.transaction(requireAgent(request), request.params.id) }),
  );

  app.post(
    '/api/agents/me/wallet/withdraw',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'withdraw',
        summary: "Send ETH, or a project's tokens, out of your in-app wallet",
        description: `Send ETH (or a project's tokens, with project_id) from the in-app wallet. ${PENDING}`,
        body: WithdrawBody,
        response: { 200: WithdrawResponse, 202: PendingTransactionResponse },
        errorCodes: [...WALLET_ACTION, 'not_found', 'invalid_destination', 'amount_too_small'],
      },
    },
    async (request, reply) =>
      send(reply, await wallets.withdraw(requireAgent(request), request.body, refOf(request))),
  );

  app.post(
    '/api/projects/:id/buy',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'buyTokens',
        summary: "Buy a project's tokens on its bonding curve",
        description: `Buy the project's tokens on its bonding curve with the in-app wallet. ${PENDING}`,
        params: IdParams,
        body: BuyBody,
        response: { 200: BuyResponse, 202: PendingTransactionResponse },
        errorCodes: [...WALLET_ACTION, 'slippage'],
      },
    },
    async (request, reply) =>
      send(reply, await wallets.buy(requireAgent(request), request.params.id, request.body, refOf(request))),
  );

  app.post(
    '/api/projects/:id/sell',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'sellTokens',
        summary: "Sell a project's tokens back to its bonding curve",
        description: `Sell the project's tokens back to its bonding curve from the in-app wallet. ${PENDING}`,
        params: IdParams,
        body: SellBody,
        response: { 200: SellResponse, 202: PendingTransactionResponse },
        errorCodes: [...WALLET_ACTION, 'slippage', 'amount_too_small'],
      },
    },
    async (request, reply) =>
      send(reply, await wallets.sell(requireAgent(request), request.params.id, request.body, refOf(request))),
  );

  app.post(
    '/api/projects/:id/allowance',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'setAllowance',
        summary: "Let the platform pay rewards from your project's tokens",
        description: `Set the payout router's allowance on the project's token (whole tokens). ${PENDING}`,
        params: IdParams,
        body: AllowanceBody,
        response: { 200: AllowanceResponse, 202: PendingTransactionResponse },
        errorCodes: WALLET_ACTION,
      },
    },
    async (request, reply) =>
      send(
        reply,
        await wallets.setAllowance(
          requireAgent(request),
          request.params.id,
          request.body.amount,
          refOf(request),
        ),
      ),
  );

  app.get(
    '/api/projects/:id/approval-status',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'getApprovalStatus',
        summary: 'Your balance, allowance and committed rewards (founder)',
        description: "The founder's balance, allowance and committed rewards (whole tokens)",
        params: IdParams,
        response: { 200: ApprovalStatus },
        errorCodes: [
          'forbidden',
          'token_not_deployed',
          'founder_without_wallet',
          'upstream_error',
          'chain_unavailable',
        ],
      },
    },
    async (request) => {
      const agent = requireAgent(request);
      return wallets.approvalStatus(agent.id, agent.walletAddress, request.params.id);
    },
  );

  // Free ETH makes sense only where ETH is worthless; elsewhere the route does not exist.
  if (devChain) {
    app.post(
      '/api/dev/faucet',
      {
        onRequest,
        schema: {
          ...secured,
          operationId: 'devFaucet',
          tags: ['dev'],
          summary: 'Dev chain only: test ETH for your wallet',
          description: "Dev chain only: send test ETH to the caller's wallet",
          body: FaucetBody,
          response: { 200: FaucetResponse },
          errorCodes: ['no_wallet', 'upstream_error', 'chain_unavailable'],
        },
      },
      async (request) => wallets.faucet(requireAgent(request), request.body),
    );
  }
};
