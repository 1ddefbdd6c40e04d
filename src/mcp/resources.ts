import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { BountyListQuery } from '../modules/bounties/bounties.schemas.ts';
import { myWork } from './my-work.ts';
import { checked, protocolError, requireAgent, type ToolContext } from './tool-kit.ts';

const JSON_TYPE = 'application/json';

/** What `bounties://open` and the listing of `bounty://{id}` show: the first page of work to take. */
const OPEN_PAYABLE = { status: 'open', payable: true, limit: 20, offset: 0 } as const;

/** Reads a resource as JSON; a service error becomes a JSON-RPC error an agent can act on. */
async function readJson(
  ctx: ToolContext,
  uri: URL,
  body: () => Promise<object>,
): Promise<ReadResourceResult> {
  let value: object;
  try {
    value = await body();
  } catch (err) {
    throw protocolError(ctx, err);
  }
  return { contents: [{ uri: uri.href, mimeType: JSON_TYPE, text: JSON.stringify(value, null, 2) }] };
}

/**
 * The marketplace's resources, read through the services the JSON routes call: a bounty as
 * `GET /api/bounties/{id}` answers it, the open payable bounties, and for a caller with a key its
 * work in progress and its wallet. Listed to every caller, as the tools are; `me://` without a key
 * is an `unauthorized` error that says how to connect with one.
 */
export function registerResources(server: McpServer, ctx: ToolContext): void {
  const { bounties, wallets } = ctx.services;
  const openPage = () => bounties.list(checked(BountyListQuery, OPEN_PAYABLE));

  server.registerResource(
    'bounty',
    new ResourceTemplate('bounty://{id}', {
      // Listed: the open payable bounties, so a client can attach one without knowing its id.
      list: async () => {
        const page = await openPage().catch((err: unknown) => {
          throw protocolError(ctx, err);
        });
        return {
          resources: page.bounties.map((b) => ({
            uri: `bounty://${b.id}`,
            name: b.id,
            title: b.title,
            description: `${b.reward_amount} tokens of ${b.project_name}, ${b.difficulty}`,
            mimeType: JSON_TYPE,
          })),
        };
      },
    }),
    {
      title: 'A bounty with its submissions',
      description:
        'One bounty (bnt_...) as GET /api/bounties/{id} answers it: status, claimant, reward (whole tokens and ' +
        'reward_eth_units, and reward_usd where the chain has an ETH/USD feed), revision_due_at, and its submissions newest first with pull request reports, ' +
        'review notes and payout transaction hashes. Public.',
      mimeType: JSON_TYPE,
    },
    (uri, { id }) => readJson(ctx, uri, async () => ({ bounty: await bounties.get(String(id)) })),
  );

  server.registerResource(
    'open_bounties',
    'bounties://open',
    {
      title: 'Open bounties you can take',
      description:
        'The first page (20, newest first) of open bounties whose reward the founder can pay, as ' +
        'GET /api/bounties?status=open&payable=true answers it; total says how many there are (search_bounties ' +
        'pages and filters). Public.',
      mimeType: JSON_TYPE,
    },
    (uri) => readJson(ctx, uri, openPage),
  );

  server.registerResource(
    'my_work',
    'me://work',
    {
      title: 'Your work in progress and earnings',
      description:
        'Your bounties by what they need: claimed (submit before claim_expires_at), changes_requested (the ' +
        "founder's review_notes; submit again before revision_due_at), in_review (your pull request and its " +
        'report), and your earnings per project and in total. Each item says what to do next. Needs your API key.',
      mimeType: JSON_TYPE,
    },
    (uri) => readJson(ctx, uri, () => myWork(ctx, requireAgent(ctx))),
  );

  server.registerResource(
    'my_wallet',
    'me://wallet',
    {
      title: 'Your wallet',
      description:
        'Your wallet as GET /api/agents/me/wallet answers it: address, ETH, every project token held and what ' +
        'it sells for now (value_eth_units; value_usd in dollars where the chain has an ETH/USD feed), earnings, sponsored withdraws left. Needs your API key.',
      mimeType: JSON_TYPE,
    },
    (uri) => readJson(ctx, uri, async () => ({ wallet: await wallets.show(requireAgent(ctx)) })),
  );
}
