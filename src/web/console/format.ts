import { parseEther, parseUnits } from 'viem';
import { TOKEN_DECIMALS } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';
import { type Amount, addressUrl, amountOf, amountOfDecimal, groupDigits, txUrl } from '../public/format.ts';

export type { Amount } from '../public/format.ts';
export { formatUsd } from '../public/format.ts';

/** A link that fixes a refused form ("Buy tokens", "Raise the allowance"), shown beside its message. */
export interface FixLink {
  href: string;
  text: string;
}

/** A form's failure, shown in that form (fields tied with aria-describedby) and at the page top. */
export interface FormError {
  form: string;
  message: string;
  fields: Record<string, string>;
  values: Record<string, unknown>;
  fixes?: FixLink[];
}

/** How long is left, in words a person reads at a glance ("2 d 5 h", "40 min", "expired"). */
export function timeLeft(ms: number): string {
  if (ms <= 0) return 'expired';
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${Math.max(1, minutes)} min`;
}

/**
 * Amounts for people come from the public pages' formatter, the one of every page
 * (`formatUnits`): `text` grouped and rounded ("1,234.5", "0.499802"), `exact` every digit for
 * a title attribute.
 */
export const ethAmount = (wei: bigint | string): Amount => amountOf(wei);
export const tokenAmount = (units: bigint | string): Amount => amountOf(units, TOKEN_DECIMALS);
/** Whole tokens as the API's exact decimal text ("1000.5"), e.g. the funds of approval status. */
export const tokensAmount = (decimal: string): Amount => amountOfDecimal(decimal, TOKEN_DECIMALS);

/**
 * The template helpers of one console page: the form error's messages and the values to put
 * back, and how money, hashes and times are shown. Templates get these and no rules.
 */
export function helpers(error: FormError | null, explorerUrl: string | null) {
  const mine = (form: string) => (error && error.form === form ? error : null);
  return {
    /** The message for a field of a form, when that form failed on it. */
    err: (form: string, field: string): string | null => mine(form)?.fields[field] ?? null,
    /** The form-level message of the form that failed (shown inside it, role=alert). */
    formError: (form: string): string | null => mine(form)?.message ?? null,
    /** What the person typed, put back after a failed submit; never a hidden or secret field. */
    value: (form: string, field: string, fallback = ''): string => {
      const v = mine(form)?.values[field];
      return typeof v === 'string' ? v : fallback;
    },
    /** The fix links of the form that failed ("Buy tokens" on a refused bounty). */
    fixes: (form: string): FixLink[] => mine(form)?.fixes ?? [],
    /** Whole tokens (a reward) grouped: 12500 -> "12,500". */
    whole: (n: number | bigint) => groupDigits(n),
    date: (d: Date | string | null) => (d ? new Date(d).toISOString().slice(0, 16).replace('T', ' ') : ''),
    left: timeLeft,
    short: (hash: string | null) => (hash ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : ''),
    /** The explorer's page of a transaction, when one is configured; otherwise no link. */
    txUrl: (hash: string) => txUrl(explorerUrl, hash),
    /** The explorer's page of an address (a wallet to fund), when one is configured. */
    addressUrl: (address: string) => addressUrl(explorerUrl, address),
  };
}
export type Helpers = ReturnType<typeof helpers>;

const amountError = (field: string, what: string) =>
  new AppError('validation_error', 'Some fields need fixing.', [{ field, message: `must be ${what}` }]);

const DECIMAL = /^(0|[1-9][0-9]{0,30})(\.[0-9]{1,18})?$/;

/** "0.5" ETH from a form as wei (a decimal string, as the JSON API takes it); positive. */
export function ethField(field: string, value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!DECIMAL.test(text)) throw amountError(field, 'an amount like 0.5 (up to 18 decimals)');
  const wei = parseEther(text);
  if (wei <= 0n) throw amountError(field, 'more than 0');
  return wei.toString();
}

/** "12.5" tokens from a form as base units (decimal string); positive. */
export function tokensField(field: string, value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!DECIMAL.test(text)) throw amountError(field, 'an amount like 12.5 (up to 18 decimals)');
  const units = parseUnits(text, TOKEN_DECIMALS);
  if (units <= 0n) throw amountError(field, 'more than 0');
  return units.toString();
}

/** The notice for a wallet action whose transaction was sent but has not mined within the wait. */
export function pendingMessage(what: string, p: { transaction: { id: string }; tx_hash: string }): string {
  return `${what} sent: transaction ${p.tx_hash} is still pending (${p.transaction.id}). It settles on its own: Recent transactions, under Wallet on My work, shows when it does.`;
}
