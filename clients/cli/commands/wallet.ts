import { BountyApiError, type BountyClient, ok } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import {
  dim,
  fields,
  formatUnits,
  line,
  parseEthAmount,
  printJson,
  roughUnits,
  table,
  usdSuffix,
  withSpinner,
} from '../output.ts';
import { CliError } from '../settings.ts';
import { ethOption, parseTokenAmount, tokensOrAllArg } from './amounts.ts';
import { registerTransactionCommand, settle, waitOption } from './transactions.ts';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const eth = (units: string | null) => (units === null ? null : `${formatUnits(units)} ETH`);
const about = (units: string | null, usd?: string | null) =>
  units === null ? null : `≈ ${roughUnits(units)} ETH${usdSuffix(usd)}`;

/** Cashing out: what the wallet holds and earned, selling tokens for ETH, sending either out. */
export function registerWalletCommands(cli: Cli): void {
  const { program } = cli;
  const client = () => cli.client({ requireKey: true });

  program
    .command('wallet')
    .description('Your wallet: ETH, the project tokens you hold and what they sell for, your earnings')
    .option('--fresh', 'read the ETH balance from the chain now, not as last stored')
    .action(async (opts: { fresh?: boolean }) => {
      const query = opts.fresh ? { fresh: true } : {};
      const data = await ok(client().GET('/api/agents/me/wallet', { params: { query } }));
      if (cli.json()) return printJson(data);
      const w = data.wallet;
      fields([
        ['wallet', w.address ? `${w.address} (${w.wallet_type})` : null],
        ['eth', eth(w.eth_balance_units)],
        ['read at block', w.eth_balance_block],
        ['sponsored withdraws left today', w.sponsored_withdrawals_left],
      ]);
      line();
      table(
        ['TOKEN', 'BALANCE', 'VALUE', 'PROJECT'],
        w.tokens.map((t) => [
          t.token_symbol,
          formatUnits(t.balance_units),
          about(t.value_eth_units, t.value_usd),
          `${t.project_name} (${t.project_id})`,
        ]),
        '(no project tokens)',
      );
      line();
      const e = w.earnings;
      table(
        ['EARNED', 'BOUNTIES', 'VALUE NOW', 'PROJECT'],
        e.projects.map((p) => [
          `${formatUnits(p.earned_units)} ${p.token_symbol}`,
          p.completed,
          about(p.earned_eth_units),
          `${p.project_name} (${p.project_id})`,
        ]),
        '(no bounties paid yet)',
      );
      line(
        dim(
          `earned in all: ${e.completed} ${e.completed === 1 ? 'bounty' : 'bounties'}, ${about(e.earned_eth_units)} now`,
        ),
      );
    });

  program
    .command('sell')
    .description(
      "Sell a project's tokens to its bonding curve for ETH; no ETH needed: without any, the platform " +
        'pays the gas and takes it back from the sale',
    )
    .argument('<project>', 'project id')
    .argument('<amount>', 'whole tokens (95, 2.5), or all: your whole balance of them', tokensOrAllArg)
    .addOption(ethOption('--min-eth <amount>', 'the least ETH to accept (slippage bound)'))
    .addOption(waitOption())
    .action(async (projectId: string, amount: string, opts: { minEth?: string; wait?: boolean }) => {
      const c = client();
      const { units, symbol } =
        amount === 'all' ? await wholeBalance(c, projectId) : { units: amount, symbol: 'tokens' };
      const answer = await withSpinner('Selling…', () =>
        ok(
          c.POST('/api/projects/{id}/sell', {
            params: { path: { id: projectId } },
            body: { tokens_units: units, ...(opts.minEth ? { min_eth_units: opts.minEth } : {}) },
          }),
        ),
      ).catch(explainTooSmall);
      const data = await settle(cli, c, answer, opts.wait);
      if (!data) return;
      if (cli.json()) return printJson(data);
      fields([
        ['sold', `${formatUnits(units)} ${symbol}`],
        ['received', eth(data.eth_units)],
        [
          'gas',
          data.sponsored
            ? `${formatUnits(data.gas_eth_units)} ETH, paid by the platform and taken back from the sale`
            : 'paid by your wallet',
        ],
        ['sponsored', data.sponsored ? 'yes' : 'no'],
        ['tx', data.tx_hash],
      ]);
    });

  program
    .command('withdraw')
    .description(
      "Send ETH, or with --project that project's tokens, from your in-app wallet to an address " +
        '(token withdraws from a wallet without ETH: the platform pays the gas, a few a day)',
    )
    .argument('<to>', 'the receiving address (0x + 40 hex)')
    .argument('<amount>', 'ETH (0.5, or base units such as 5000wei); with --project, whole tokens (10, 2.5)')
    .option('--project <id>', "send this project's tokens instead of ETH")
    .addOption(waitOption())
    .action(async (to: string, amount: string, opts: { project?: string; wait?: boolean }) => {
      if (!ADDRESS.test(to)) throw new CliError('usage', `Not an address: ${to} (0x and 40 hex digits).`, 2);
      const units = opts.project ? parseTokenAmount(amount) : parseEthAmount(amount);
      if (units === null || units === '0') {
        throw new CliError(
          'usage',
          opts.project
            ? `Not a positive number of tokens: ${amount} (e.g. 10 or 2.5).`
            : `Not a positive ETH amount: ${amount} (e.g. 0.5, or base units such as 5000wei).`,
          2,
        );
      }
      const c = client();
      const answer = await withSpinner('Sending…', () =>
        ok(
          c.POST('/api/agents/me/wallet/withdraw', {
            body: { to, amount_units: units, ...(opts.project ? { project_id: opts.project } : {}) },
          }),
        ),
      );
      const data = await settle(cli, c, answer, opts.wait);
      if (!data) return;
      if (cli.json()) return printJson(data);
      fields([
        ['sent', `${formatUnits(units)} ${opts.project ? `tokens of ${opts.project}` : 'ETH'} to ${to}`],
        ['sponsored', data.sponsored ? 'yes, the platform paid the gas' : 'no, your wallet paid the gas'],
        ['tx', data.tx_hash],
      ]);
    });

  registerTransactionCommand(cli);
}

/** `all`: the wallet's whole balance of the project's token, as the wallet endpoint lists it. */
async function wholeBalance(client: BountyClient, projectId: string) {
  const { wallet } = await ok(client.GET('/api/agents/me/wallet'));
  const held = wallet.tokens.find((t) => t.project_id === projectId);
  if (!held || BigInt(held.balance_units) === 0n) {
    throw new CliError('nothing_to_sell', `Your wallet holds no tokens of ${projectId}.`);
  }
  return { units: held.balance_units, symbol: held.token_symbol };
}

/** `amount_too_small` names the least sale in base units: say it in tokens, as the amount is typed. */
function explainTooSmall(err: unknown): never {
  if (err instanceof BountyApiError && err.code === 'amount_too_small') {
    const least = /must be at least (\d+)/.exec(err.details?.[0]?.message ?? '')?.[1];
    if (least) {
      throw new CliError(
        'amount_too_small',
        `${err.message} The least that sells now: ${formatUnits(least)} tokens.`,
      );
    }
  }
  throw err;
}
