/** Text for pages: amounts, ages and explorer links, computed before the template sees them. */

const WEI_PER_ETH = 10n ** 18n;

/** 1234567 -> "1,234,567" (whole tokens; stable across locales so tests and screenshots agree). */
export function groupDigits(n: number | bigint | string): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Wei as ETH with up to four significant digits after the leading zeros: 1234500000000000 ->
 * "0.001234". Exact bigint arithmetic, no float rounding of large values.
 */
export function formatEth(wei: bigint): string {
  if (wei === 0n) return '0';
  const whole = wei / WEI_PER_ETH;
  const frac = (wei % WEI_PER_ETH).toString().padStart(18, '0');
  if (whole >= 1000n) return groupDigits(whole);
  if (whole > 0n) {
    const decimals = frac.slice(0, 4).replace(/0+$/, '');
    return decimals ? `${groupDigits(whole)}.${decimals}` : groupDigits(whole);
  }
  const firstDigit = frac.search(/[1-9]/);
  return `0.${frac.slice(0, firstDigit + 4).replace(/0+$/, '')}`;
}

/** Token base units (18 decimals) as whole tokens with up to four decimals, grouped. */
export function formatTokenUnits(units: bigint | string): string {
  const u = BigInt(units);
  const whole = u / WEI_PER_ETH;
  const decimals = (u % WEI_PER_ETH).toString().padStart(18, '0').slice(0, 4).replace(/0+$/, '');
  return decimals ? `${groupDigits(whole)}.${decimals}` : groupDigits(whole);
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
