/** Text for pages: amounts, ages and explorer links, computed before the template sees them. */

/** Significant digits an amount shows (its whole part is never cut): "494,878", "47.5", "0.499802". */
export const SIGNIFICANT_DIGITS = 6;
const ETH_DECIMALS = 18;

/** 1234567 -> "1,234,567" (whole tokens; stable across locales so tests and screenshots agree). */
export function groupDigits(n: number | bigint | string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Dollars as the API states them (`reward_usd`, `value_usd`: "1234.56") for people: "1,234.56";
 * null (no ETH/USD price) stays null, and pages show nothing.
 */
export function formatUsd(usd: string | null | undefined): string | null {
  if (usd == null) return null;
  const [whole = '0', cents = '00'] = usd.split('.');
  return `${groupDigits(whole)}.${cents}`;
}

/** Every digit of `units` at `decimals`, no grouping, no trailing zeros: 1500000000000000000 -> "1.5". */
export function exactUnits(units: bigint | string, decimals = ETH_DECIMALS): string {
  const u = BigInt(units);
  const abs = u < 0n ? -u : u;
  const scale = 10n ** BigInt(decimals);
  const frac = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${u < 0n ? '-' : ''}${abs / scale}${frac ? `.${frac}` : ''}`;
}

/**
 * An amount of base units (18 decimals unless told) for people, the one formatter of every page:
 * thousands grouped, rounded half up to SIGNIFICANT_DIGITS significant digits without ever
 * cutting the whole part, trailing zeros dropped. 494877548106190203700365 -> "494,878";
 * 1234500000000000000000 -> "1,234.5"; 499802306170982308 -> "0.499802"; a tiny value keeps its
 * first significant digits (1 -> "0.000000000000000001"). Exact bigint arithmetic, no floats.
 */
export function formatUnits(units: bigint | string, decimals = ETH_DECIMALS): string {
  const u = BigInt(units);
  if (u === 0n) return '0';
  const abs = u < 0n ? -u : u;
  const sign = u < 0n ? '-' : '';
  const scale = 10n ** BigInt(decimals);
  const wholeDigits = abs >= scale ? (abs / scale).toString().length : 0;
  // Decimals kept: what the significant digits leave after the whole part; below 1, counted
  // from the first non-zero digit.
  const leadingZeros = wholeDigits > 0 ? 0 : decimals - abs.toString().length;
  const keep = Math.min(decimals, Math.max(0, SIGNIFICANT_DIGITS - wholeDigits) + leadingZeros);
  const step = 10n ** BigInt(decimals - keep);
  const rounded = ((abs + step / 2n) / step) * step;
  const whole = rounded / scale;
  const frac = (rounded % scale).toString().padStart(decimals, '0').slice(0, keep).replace(/0+$/, '');
  return `${sign}${groupDigits(whole)}${frac ? `.${frac}` : ''}`;
}

/** An amount for a page: `text` for people (formatUnits), `exact` every digit (a title attribute). */
export interface Amount {
  text: string;
  exact: string;
}

export function amountOf(units: bigint | string, decimals = ETH_DECIMALS): Amount {
  return { text: formatUnits(units, decimals), exact: exactUnits(units, decimals) };
}

/** An exact decimal amount ("1000.5" whole tokens, as the API words funds) as an Amount. */
export function amountOfDecimal(text: string, decimals = ETH_DECIMALS): Amount {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text.trim());
  if (!m) return { text, exact: text };
  const frac = (m[3] ?? '').slice(0, decimals).padEnd(decimals, '0');
  const units = BigInt(`${m[2]}${frac}`);
  return amountOf(m[1] ? -units : units, decimals);
}

/** Wei as ETH for people ("0.499802"): formatUnits. */
export function formatEth(wei: bigint | string): string {
  return formatUnits(wei);
}

/** Token base units (18 decimals) as whole tokens for people ("1,234.5"): formatUnits. */
export function formatTokenUnits(units: bigint | string): string {
  return formatUnits(units);
}

/** "just now", "5 min ago", "3 h ago", "2 d ago", "4 mo ago", "1 y ago". */
export function age(from: Date, now: Date): string {
  const s = Math.max(0, Math.floor((now.getTime() - from.getTime()) / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  const d = Math.floor(h / 24);
  if (d < 60) return `${d} d ago`;
  const mo = Math.floor(d / 30);
  if (mo < 24) return `${mo} mo ago`;
  return `${Math.floor(d / 365)} y ago`;
}

/** A transaction's page on the configured explorer, or null (the hash is then shown as text). */
export function txUrl(explorerUrl: string | null, hash: string): string | null {
  return explorerUrl ? `${explorerUrl.replace(/\/+$/, '')}/tx/${hash}` : null;
}

export function addressUrl(explorerUrl: string | null, address: string): string | null {
  return explorerUrl ? `${explorerUrl.replace(/\/+$/, '')}/address/${address}` : null;
}

/** Only http(s) links are rendered as links: a stored URL is data, never a `javascript:` href. */
export function safeHref(url: string | null): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** "0.5 h", "12 h", "3.2 d": the review record's median, readable. */
export function hours(h: number | null): string {
  if (h === null) return '—';
  if (h < 48) return `${h < 10 ? h.toFixed(1) : Math.round(h)} h`;
  return `${(h / 24).toFixed(1)} d`;
}
