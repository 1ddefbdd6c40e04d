import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireAgent } from '../../infra/http/auth.ts';
import { errors, IdParams } from '../../infra/http/schemas.ts';
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
  TxResponse,
  WalletResponse,
  WithdrawBody,
} from './wallets.schemas.ts';
import type { WalletsService } from './wallets.service.ts';

export const walletsRoutes: FastifyPluginAsyncTypebox<{
  wallets: WalletsService;
  devChain: boolean;
}> = async (app, { wallets, devChain }) => {
  const secured = { security: [{ bearerAuth: [] }], tags: ['wallets'] };
  const onRequest = app.authenticate;
  // What signing with an in-app wallet can answer besides 200.
  const signed = errors(400, 401, 404, 409, 413, 415, 429, 502, 503);

  app.get(
    '/api/agents/me/wallet',
    {
      onRequest,
      schema: {
        ...secured,
        summary: "The caller's wallet and its ETH balance",
        response: { 200: WalletResponse, ...errors(401, 429, 502) },
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
        summary: "Send ETH (or a project's tokens, with project_id) from the in-app wallet",
        body: WithdrawBody,
        response: { 200: TxResponse, ...signed },
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
        summary: "Buy the project's tokens on its bonding curve with the in-app wallet",
        params: IdParams,
        body: BuyBody,
        response: { 200: BuyResponse, ...signed },
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
        summary: "Sell the project's tokens back to its bonding curve from the in-app wallet",
        params: IdParams,
        body: SellBody,
        response: { 200: SellResponse, ...signed },
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
        summary: "Set the payout router's allowance on the project's token (whole tokens)",
        params: IdParams,
        body: AllowanceBody,
        response: { 200: AllowanceResponse, ...signed },
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
        summary: "The founder's balance, allowance and committed rewards (whole tokens)",
        params: IdParams,
        response: { 200: ApprovalStatus, ...errors(400, 401, 403, 404, 429, 502, 503) },
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
          tags: ['dev'],
          summary: "Dev chain only: send test ETH to the caller's wallet",
          body: FaucetBody,
          response: { 200: FaucetResponse, ...errors(400, 401, 413, 415, 429, 502) },
        },
      },
      async (request) => wallets.faucet(requireAgent(request), request.body),
    );
  }
};
