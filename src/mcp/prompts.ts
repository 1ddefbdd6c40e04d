import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { branchFor } from '../modules/bounties/bounty-repository.ts';
import { reviewPrompt, user } from './review-prompt.ts';
import { type BountyDetail as Detail, protocolError, type ToolContext } from './tool-kit.ts';

const bountyId = z.string().min(1).max(100).describe('The bounty id (bnt_...)');

/** The bounty as `bounty://{id}` reads it, embedded in the prompt so the model has it at hand. */
const embedded = (bounty: Detail) => ({
  role: 'user' as const,
  content: {
    type: 'resource' as const,
    resource: {
      uri: `bounty://${bounty.id}`,
      mimeType: 'application/json',
      text: JSON.stringify({ bounty }, null, 2),
    },
  },
});

/** Runs a prompt body; a service error (an unknown bounty) becomes a JSON-RPC error with its code. */
async function build(ctx: ToolContext, body: () => Promise<GetPromptResult>): Promise<GetPromptResult> {
  try {
    return await body();
  } catch (err) {
    throw protocolError(ctx, err);
  }
}

/** Where the caller stands on this bounty, and so where the steps start. */
function standing(ctx: ToolContext, b: Detail): string {
  const mine = ctx.agent !== null && b.claimed_by === ctx.agent.id;
  if (b.status === 'open')
    return b.payable
      ? 'It is open: start at step 1.'
      : "It is open but the founder's funds do not cover it now (payable false): you may not be paid; prefer a payable one (bounties://open).";
  if (mine && b.status === 'claimed' && b.revision_due_at) {
    const notes = b.submissions.find((s) => s.status === 'changes_requested')?.review_notes;
    return `You hold it and the founder requested changes: "${notes ?? ''}". Do what they ask and submit again (steps 3 to 6) before ${b.revision_due_at}.`;
  }
  if (mine && b.status === 'claimed') return `You hold it since ${b.claimed_at}: continue at step 2.`;
  if (mine && b.status === 'in_review') return 'You submitted it and it is in review: see step 7.';
  return `It is ${b.status}${b.claimed_by ? ' by another agent' : ''}: it cannot be claimed; pick another from bounties://open.`;
}

function workSteps(ctx: ToolContext, b: Detail): string {
  // The branch and the push instructions come from the bounty's repository answer (repo_credentials).
  const branch = branchFor(b.id);
  const open =
    ctx.repoHost.info.kind === 'local'
      ? `open_pull_request {bounty_id: "${b.id}", head: "${branch}", title: "<what it does>", body: "For bounty ${b.id}."}: it answers html_url`
      : 'open the pull request as repo_credentials.pull_request says; its address is the html_url';
  return [
    `Work on bounty ${b.id} "${b.title}" (${b.project_name}): ${b.reward_amount} tokens of the project, ${b.difficulty}.`,
    '',
    'What done looks like:',
    b.description,
    '',
    standing(ctx, b),
    '',
    `1. claim_bounty {bounty_id: "${b.id}"}: only you may then submit. One active claim per project; it lapses after ${ctx.claimTtlHours} hours without a submission.`,
    `2. repo_credentials {bounty_id: "${b.id}"}: the clone_url, the branch, how to push (push) and the same as shell lines (commands).`,
    `3. git clone <clone_url>; git checkout -b ${branch}; make the change, with tests where the project has them; commit.`,
    `4. git push origin ${branch}, authenticating as repository.push says (commands.push is the line).`,
    `5. ${open}.`,
    `6. submit_pull_request {bounty_id: "${b.id}", pr_url: <html_url>}: the bounty goes to in_review.`,
    '7. Follow it with get_bounty or the resource me://work until the founder decides:',
    "   - approved: the bounty is done and the reward (minus the platform fee) is paid to your wallet in the project's token; the cash_out prompt turns it into ETH.",
    '   - request_changes: the bounty is claimed by you again with revision_due_at; read review_notes of the changes_requested submission, push fixes to the same branch (the pull request updates) or open a new one, and submit_pull_request again before revision_due_at, else the claim lapses.',
    '   - rejected: review_notes say why; the bounty reopens for anyone.',
    '',
    'Every tool but the reads needs your API key as the bearer token of this MCP connection (register_agent gives one). Errors carry a code and a message that says what to do.',
  ].join('\n');
}

const CASH_OUT = (to: string | undefined) =>
  [
    'Turn the project tokens your bounties paid you into ETH.',
    '',
    '1. my_wallet (or the resource me://wallet): wallet.tokens lists each project token you hold with balance_units and value_eth_units, what selling it all pays now.',
    '2. For each token worth selling: sell_tokens {project_id, tokens_units: <balance_units>}. No ETH is needed: a wallet without ETH is sponsored, the platform pays the gas and takes it back from the sale (gas_eth_units, sponsored true). To bound slippage add min_eth_units, the least wei you accept after that gas (a little under value_eth_units). amount_too_small: the sale would not cover its gas; its details name the least tokens_units that sells; keep the rest.',
    '   A result with transaction (status pending) instead: the sale was sent and may still mine. Do not sell again; call wallet_transaction {id: <transaction.id>} until it is confirmed (result.eth_units is what you received) or failed (error says why).',
    '3. my_wallet again: eth_balance_units is what you now hold.',
    to
      ? `4. withdraw {to: "${to}", amount_units: <ETH to send>}: an ETH withdraw pays its own gas, so leave some wei in the wallet (insufficient_eth otherwise).`
      : '4. To move the ETH out: withdraw {to: <your address>, amount_units}; an ETH withdraw pays its own gas, so leave some wei.',
    '',
    'These tools need your API key; they sign with your in-app wallet (an external wallet signs for itself).',
  ].join('\n');

/**
 * Prompts: the marketplace's main journeys as instructions a model can follow with the tools,
 * filled with the live bounty where one is named. Errors are JSON-RPC errors carrying the API's
 * `{code, message}` (an unknown bounty: -32002, not_found).
 */
export function registerPrompts(server: McpServer, ctx: ToolContext): void {
  server.registerPrompt(
    'work_on_bounty',
    {
      title: 'Earn a bounty',
      description:
        'Step by step for one bounty: claim it, clone with repo_credentials, push a branch, open_pull_request, ' +
        'submit_pull_request, and what follows approval, request_changes or rejection; starts where you stand.',
      argsSchema: { bounty_id: bountyId },
    },
    ({ bounty_id }) =>
      build(ctx, async () => {
        const bounty = await ctx.services.bounties.get(bounty_id);
        return {
          description: `Work on ${bounty.id}: ${bounty.title}`,
          messages: [user(workSteps(ctx, bounty)), embedded(bounty)],
        };
      }),
  );

  server.registerPrompt(
    'review_submission',
    {
      title: 'Review a submission (founder)',
      description:
        "The bounty's pending submission with its pull request report (state, size, mergeable, checks), the " +
        'changed files and their diff, and what approving pays; asks you to approve_submission, request_changes ' +
        'or reject_submission with notes.',
      argsSchema: { bounty_id: bountyId },
    },
    ({ bounty_id }) =>
      build(ctx, async () => {
        const bounty = await ctx.services.bounties.get(bounty_id);
        const prompt = await reviewPrompt(ctx, bounty);
        return { ...prompt, messages: [...prompt.messages, embedded(bounty)] };
      }),
  );

  server.registerPrompt(
    'cash_out',
    {
      title: 'Cash out your earnings',
      description:
        'my_wallet, then sell_tokens for each project token you hold (no ETH needed), and optionally withdraw ' +
        'the ETH to an address of yours.',
      argsSchema: {
        to_address: z
          .string()
          .max(42)
          .optional()
          .describe('Where to withdraw the ETH afterwards (0x + 40 hex); leave out to keep it in the wallet'),
      },
    },
    async ({ to_address }) => ({
      description: 'Sell your project tokens for ETH',
      messages: [user(CASH_OUT(to_address))],
    }),
  );
}
