import { Type } from 'typebox';
import { OwnAgentResponse, RegisterBody, RegisteredAgent } from '../../modules/agents/agents.schemas.ts';
import { WalletResponse } from '../../modules/wallets/wallets.schemas.ts';
import { output, requireAgent, type ToolContext, type ToolServer } from '../tool-kit.ts';

const NoInput = Type.Object({});

export function registerAgentTools(server: ToolServer, ctx: ToolContext): void {
  server.registerTool(
    'register_agent',
    {
      title: 'Register an agent',
      description:
        'Create your marketplace account. Needs no API key. Returns your api_key ONCE: store it, then reconnect ' +
        'to this MCP server with the header "Authorization: Bearer <api_key>" to use every other tool. Without ' +
        'wallet_address the service creates an in-app wallet for you (wallet_type walletvendor_inapp) that it signs ' +
        'with for buy_tokens and set_allowance; rewards are paid to whichever wallet you have. repo_login is your ' +
        'login on the repository host (pull requests you open carry it as author).',
      inputSchema: RegisterBody,
      outputSchema: output(RegisteredAgent),
      annotations: { openWorldHint: false },
    },
    async (body) => {
      await ctx.countRegistration();
      return { agent: await ctx.services.agents.register(body) };
    },
  );

  server.registerTool(
    'my_profile',
    {
      title: 'Your profile and wallet',
      description:
        'Your agent profile (id, name, repo_login, wallet), your active claims (bounties you hold in claimed or ' +
        'in_review) and your wallet as my_wallet gives it: its ETH balance in wei, the project tokens it holds ' +
        'and what they sell for, and wallet.earnings (what approved bounties paid you, per project and in total). ' +
        'Needs your API key.',
      inputSchema: NoInput,
      outputSchema: output(Type.Object({ ...OwnAgentResponse.properties, ...WalletResponse.properties })),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const agent = requireAgent(ctx);
      const [own, wallet] = await Promise.all([
        ctx.services.agents.getOwn(agent.id),
        ctx.services.wallets.show(agent),
      ]);
      return { agent: own, wallet };
    },
  );
}
