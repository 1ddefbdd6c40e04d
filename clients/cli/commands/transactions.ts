import { Option } from 'commander';
import { type BountyClient, isPending, ok, type WalletTransaction } from '../../typescript/index.ts';
import { type Cli, intArg } from '../context.ts';
import { fields, formatUnits, line, printJson, table, withSpinner } from '../output.ts';
import { CliError } from '../settings.ts';

/** How long `--wait` follows a pending transaction before it gives the id back. */
const WAIT_MS = 10 * 60_000;

/** `--wait` of the wallet actions (buy, sell, allowance, withdraw). */
export const waitOption = () =>
  new Option(
    '--wait',
    'when the transaction is still pending after the service stops waiting (202), follow it until it is confirmed or failed',
  );

const pendingLine = (t: WalletTransaction) =>
  `pending: transaction ${t.id} (tx ${t.tx_hash ?? 'not sent yet'})`;

/**
 * A wallet action's answer, settled: its 200 answer as it is; a 202 (the transaction was sent and
 * may still mine) is said as `pending: transaction wtx_… (tx 0x…)` and, with `--wait`, followed
 * until it settles: confirmed gives the action's 200 answer (`result`), failed is an error (exit 1).
 * Without `--wait` it answers null: the pending line (or with `--json` the 202 answer) is printed.
 */
export async function settle<T extends object>(
  cli: Cli,
  client: BountyClient,
  data: T,
  wait: boolean | undefined,
): Promise<Exclude<T, { transaction: unknown }> | null> {
  if (!isPending(data)) return data as Exclude<T, { transaction: unknown }>;
  const pending = data.transaction as WalletTransaction;
  if (!wait) {
    if (cli.json()) {
      printJson(data);
      return null;
    }
    line(pendingLine(pending));
    line(`It settles on its own: \`bounty tx ${pending.id}\` shows where it is (or add --wait next time).`);
    return null;
  }
  // Progress, not data: with --json the last word on stdout is the settled answer alone.
  if (cli.json()) process.stderr.write(`${pendingLine(pending)}\n`);
  else line(pendingLine(pending));
  const t = await withSpinner(`Waiting for ${pending.id}…`, () =>
    client.waitForTransaction(pending.id, { timeoutMs: WAIT_MS }),
  );
  if (t.status === 'failed') {
    throw new CliError(
      t.error?.code ?? 'upstream_error',
      `Transaction ${t.id} failed: ${t.error?.message ?? 'no reason given'}`,
    );
  }
  if (t.status === 'pending') {
    throw new CliError(
      'still_pending',
      `Transaction ${t.id} is still pending after ${WAIT_MS / 60_000} minutes; the service keeps following it: \`bounty tx ${t.id}\`.`,
    );
  }
  return { tx_hash: t.tx_hash, ...t.result } as Exclude<T, { transaction: unknown }>;
}

const statusText = (t: WalletTransaction) =>
  t.status === 'pending'
    ? 'pending (sent, may still mine)'
    : t.status === 'confirmed'
      ? 'confirmed'
      : `failed: ${t.error?.code ?? 'upstream_error'}: ${t.error?.message ?? ''}`.trim();

/** `bounty tx [id]`: one wallet transaction, or the recent ones. */
export function registerTransactionCommand(cli: Cli): void {
  cli.program
    .command('tx')
    .description(
      'Your wallet transactions (buys, sales, allowances, withdraws): one by id (wtx_…), or the recent ones',
    )
    .argument('[id]', 'a transaction id (wtx_…), as a pending action printed it')
    .option('--limit <n>', 'how many recent ones (1-100)', intArg(1, 100), 20)
    .action(async (id: string | undefined, opts: { limit: number }) => {
      const client = cli.client({ requireKey: true });
      if (id) {
        const data = await ok(
          client.GET('/api/agents/me/wallet/transactions/{id}', { params: { path: { id } } }),
        );
        if (cli.json()) return printJson(data);
        const t = data.transaction;
        fields([
          ['transaction', t.id],
          ['kind', t.kind],
          ['status', statusText(t)],
          ['tx', t.tx_hash],
          ['project', t.project_id],
          ['sponsored', t.sponsored ? 'yes, the platform sends it' : 'no'],
          ['created', t.created_at],
          ['updated', t.updated_at],
          // What it did, once confirmed: the action's answer, amounts in ETH or whole tokens.
          ...Object.entries(t.result ?? {})
            .filter(([k]) => k !== 'tx_hash')
            .map(([k, v]): [string, unknown] =>
              k.endsWith('_units') && typeof v === 'string' ? [k.slice(0, -6), formatUnits(v)] : [k, v],
            ),
        ]);
        return;
      }
      const data = await ok(
        client.GET('/api/agents/me/wallet/transactions', { params: { query: { limit: opts.limit } } }),
      );
      if (cli.json()) return printJson(data);
      table(
        ['ID', 'KIND', 'STATUS', 'TX', 'PROJECT', 'CREATED'],
        data.transactions.map((t) => [t.id, t.kind, t.status, t.tx_hash, t.project_id, t.created_at]),
        '(no wallet transactions yet)',
      );
    });
}
