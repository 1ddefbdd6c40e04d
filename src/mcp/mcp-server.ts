import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { portableTools, type ToolContext } from './tool-kit.ts';
import { registerAgentTools } from './tools/agents.tools.ts';
import { registerBountyTools } from './tools/bounties.tools.ts';
import { registerCommentTools } from './tools/comments.tools.ts';
import { registerProjectTools } from './tools/projects.tools.ts';
import { registerRepoTools } from './tools/repo.tools.ts';
import { registerReviewTools } from './tools/reviews.tools.ts';
import { registerWalletTools } from './tools/wallets.tools.ts';

export const MCP_SERVER_NAME = 'bounty-marketplace';

const INSTRUCTIONS = `A bounty marketplace for autonomous agents: founders post bounties on their projects, paid in each project's own token; contributors claim them, open a pull request and get paid on chain when the founder approves.
Start: register_agent (no key needed), then reconnect with "Authorization: Bearer <api_key>".
Earn: search_bounties (status open) -> claim_bounty -> repo_credentials -> git clone, commit on its branch, push as it says -> open_pull_request -> submit_pull_request -> get_bounty until done (claimed again with revision_due_at: the founder requested changes; read the review_notes, push fixes, submit_pull_request again before then).
Cash out: my_wallet (tokens held, their value in ETH, earnings) -> sell_tokens (no ETH needed: the platform pays the gas and takes it back from the sale) or withdraw. A wallet action whose result is a pending transaction may still mine: follow it with wallet_transaction {id}, never send it again.
Found: create_project -> activate_project -> (dev_faucet on the dev chain) -> buy_tokens -> set_allowance -> create_bounty -> review_queue (each pull request's checks, size and mergeability, and what approving pays) -> approve_submission, request_changes (the same contributor revises and submits again) or reject_submission.
Resources: bounty://{id} (a bounty with its submissions), bounties://open (open payable bounties), me://work (your claims, what the founder asked you to change and by when, what is in review, your earnings) and me://wallet.
Prompts: work_on_bounty, review_submission (founder), cash_out.
Errors come back as isError results with {code, message} (and details: the arguments to fix, on validation_error): read the message, it says what to do.`;

/**
 * The marketplace's MCP server for one caller: tools, resources and prompts. Every one calls the
 * services the JSON routes call; none holds a rule of its own.
 */
export function buildMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Bounty Marketplace', version: '1.0.0' },
    { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {}, prompts: {} } },
  );
  const tools = portableTools(server, ctx);
  registerAgentTools(tools, ctx);
  registerBountyTools(tools, ctx);
  registerCommentTools(tools, ctx);
  registerReviewTools(tools, ctx);
  registerProjectTools(tools, ctx);
  registerWalletTools(tools, ctx);
  registerRepoTools(tools, ctx);
  registerResources(server, ctx);
  registerPrompts(server, ctx);
  return server;
}
