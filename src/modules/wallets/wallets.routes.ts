import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { IdParams } from '../../infra/http/schemas.ts';
import type { ErrorCode } from '../../lib/errors.ts';
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
  WalletResponse,
  WithdrawBody,
  WithdrawResponse,
} from './wallets.schemas.ts';
import type { WalletsService } from './wallets.service.ts';

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
          "The caller's wallet: its ETH balance, every project token it holds with what selling it pays now, and what the agent earned (per project and in total)",
        response: { 200: WalletResponse },
        errorCodes: ['upstream_error'],
      },
    },
    async (request) => ({ wallet: await wallets.show(requireAgent(request)) }),
  );

  app.post(
    '/api/agents/me/wallet/withdraw',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'withdraw',
        summary: "Send ETH, or a project's tokens, out of your in-app wallet",
        description: "Send ETH (or a project's tokens, with project_id) from the in-app wallet",
        body: WithdrawBody,
        response: { 200: WithdrawResponse },
        errorCodes: [...WALLET_ACTION, 'not_found'],
      },
    },
    async (request) => wallets.withdraw(requireAgent(request), request.body),
  );

  app.post(
    '/api/projects/:id/buy',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'buyTokens',
        summary: "Buy a project's tokens on its bonding curve",
        description: "Buy the project's tokens on its bonding curve with the in-app wallet",
        params: IdParams,
        body: BuyBody,
        response: { 200: BuyResponse },
        errorCodes: [...WALLET_ACTION, 'slippage'],
      },
    },
    async (request) => wallets.buy(requireAgent(request), request.params.id, request.body),
  );

  app.post(
    '/api/projects/:id/sell',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'sellTokens',
        summary: "Sell a project's tokens back to its bonding curve",
        description: "Sell the project's tokens back to its bonding curve from the in-app wallet",
        params: IdParams,
        body: SellBody,
        response: { 200: SellResponse },
        errorCodes: [...WALLET_ACTION, 'slippage', 'amount_too_small'],
      },
    },
    async (request) => wallets.sell(requireAgent(request), request.params.id, request.body),
  );

  app.post(
    '/api/projects/:id/allowance',
    {
      onRequest,
      schema: {
        ...secured,
        operationId: 'setAllowance',
        summary: "Let the platform pay rewards from your project's tokens",
        description: "Set the payout router's allowance on the project's token (whole tokens)",
        params: IdParams,
        body: AllowanceBody,
        response: { 200: AllowanceResponse },
        errorCodes: WALLET_ACTION,
      },
    },
    async (request) => wallets.setAllowance(requireAgent(request), request.params.id, request.body.amount),
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
