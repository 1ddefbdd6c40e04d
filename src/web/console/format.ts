import { formatEther, parseEther, parseUnits } from 'viem';
import { TOKEN_DECIMALS, unitsToTokens } from '../../infra/chain/chain.ts';
import { AppError } from '../../lib/errors.ts';
import { formatEth, formatTokenUnits } from '../public/format.ts';

/** A form's failure, shown in that form (fields tied with aria-describedby) and at the page top. */
export interface FormError {
  form: string;
  message: string;
  fields: Record<string, string>;
  values: Record<string, unknown>;
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
 * An amount of 18-decimal units for people: `text` grouped with a few significant decimals (the
 * public pages' formatters: "1,234.5", "0.000123"), `exact` every digit, for a title attribute.
 */
export interface Amount {
  text: string;
  exact: string;
}

const asUnits = (units: bigint | string) => (typeof units === 'string' ? BigInt(units) : units);

/** Wei as ETH for people. */
export function ethAmount(wei: bigint | string): Amount {
  const u = asUnits(wei);
  return { text: formatEth(u), exact: formatEther(u) };
}

/** Token base units as tokens for people; a balance under 0.0001 keeps its first significant digits. */
export function tokenAmount(units: bigint | string): Amount {
  const u = asUnits(units);
  const text = formatTokenUnits(u);
  return { text: text === '0' && u > 0n ? formatEth(u) : text, exact: unitsToTokens(u) };
}

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
    tokens: (units: bigint | string) => unitsToTokens(typeof units === 'string' ? BigInt(units) : units),
    eth: (wei: string | null) => (wei === null ? 'unknown' : formatEther(BigInt(wei))),
    date: (d: Date | string | null) => (d ? new Date(d).toISOString().slice(0, 16).replace('T', ' ') : ''),
    left: timeLeft,
    short: (hash: string | null) => (hash ? `${hash.slice(0, 10)}…${hash.slice(-6)}` : ''),
    /** The explorer's page of a transaction, when one is configured; otherwise no link. */
    txUrl: (hash: string) => (explorerUrl ? `${explorerUrl.replace(/\/+$/, '')}/tx/${hash}` : null),
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
