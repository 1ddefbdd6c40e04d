import { formatEther } from 'viem';
import { groupBy, lc } from '../payouts/payouts-audit.context.ts';
import { CANCEL_KIND } from '../transactions/transactions.types.ts';
import type {
  AuditIntent,
  AuditReceipt,
  AuditWalletTx,
  MoneyChain,
  MoneyDifference,
  MoneyLedger,
  MoneyRule,
} from './money-audit.types.ts';

/** What every money rule reads, indexed once, and where it reports. */
export interface MoneyContext {
  ledger: MoneyLedger;
  chain: MoneyChain;
  differ: (rule: MoneyRule, d: Omit<MoneyDifference, 'rule'>) => void;
  notes: string[];
  intentById: Map<string, AuditIntent>;
  /** Each intent's attempts: its `wallet_txs` rows, and its recorded hash should no row carry it. */
  attemptsOf: (intent: AuditIntent) => string[];
  rowByHash: Map<string, AuditWalletTx>;
  /** The receipt of a transaction mined at or before the final block; undefined otherwise. */
  final: (hash: string) => AuditReceipt | undefined;
  /** The receipt of a transaction mined after the final block (it decides nothing yet). */
  unfinal: (hash: string) => AuditReceipt | undefined;
}

export const eth = (wei: bigint) => `${formatEther(wei)} ETH (${wei} wei)`;

export function moneyContext(
  ledger: MoneyLedger,
  chain: MoneyChain,
  differences: MoneyDifference[],
  notes: string[],
): MoneyContext {
  const receipts = new Map(chain.receipts.map((r) => [lc(r.hash), r]));
  const rowsByIntent = groupBy(
    ledger.walletTxs.filter((t) => t.intentId !== null),
    (t) => t.intentId as string,
  );
  return {
    ledger,
    chain,
    differ: (rule, d) => differences.push({ rule, ...d }),
    notes,
    intentById: new Map(ledger.intents.map((i) => [i.id, i])),
    attemptsOf: (intent) => {
      // The engine's cancel at the request's nonce carries the request but executes none of it.
      const hashes = (rowsByIntent.get(intent.id) ?? [])
        .filter((t) => t.kind !== CANCEL_KIND)
        .map((t) => lc(t.hash));
      if (intent.txHash && !hashes.includes(lc(intent.txHash))) hashes.push(lc(intent.txHash));
      return hashes;
    },
    rowByHash: new Map(ledger.walletTxs.map((t) => [lc(t.hash), t])),
    final: (hash) => {
      const r = receipts.get(lc(hash));
      return r && r.blockNumber <= chain.finalBlock ? r : undefined;
    },
    unfinal: (hash) => {
      const r = receipts.get(lc(hash));
      return r && r.blockNumber > chain.finalBlock ? r : undefined;
    },
  };
}
