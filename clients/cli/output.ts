/**
 * What the CLI prints. Data goes to stdout (tables for people, `--json` for programs); progress,
 * warnings and errors go to stderr, so `bounty ... --json | jq` always reads clean JSON.
 */

const useColor = () => process.stdout.isTTY === true && !process.env.NO_COLOR;
export const bold = (s: string) => (useColor() ? `\x1b[1m${s}\x1b[22m` : s);
export const dim = (s: string) => (useColor() ? `\x1b[2m${s}\x1b[22m` : s);

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function line(text = ''): void {
  process.stdout.write(`${text}\n`);
}

export function warn(text: string): void {
  process.stderr.write(`warning: ${text}\n`);
}

/** `key: value` lines, keys aligned. Null and undefined values show as `-`. */
export function fields(rows: [string, unknown][]): void {
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows)
    line(`${dim(`${k}:`.padEnd(width + 1))} ${v === null || v === undefined ? '-' : v}`);
}

/**
 * A plain-text table. On a terminal the last column is cut to the window's width, so a long
 * title does not wrap every row; piped output keeps every character.
 */
export function table(headers: string[], rows: unknown[][], empty = '(none)'): void {
  if (rows.length === 0) {
    line(dim(empty));
    return;
  }
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const render = (r: string[]) => {
    let text = r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
    const columns = process.stdout.isTTY ? process.stdout.columns : undefined;
    if (columns && text.length > columns) text = `${text.slice(0, columns - 1)}…`;
    return text;
  };
  line(bold(render(headers)));
  for (const r of cells) line(render(r));
}

export interface Spinner {
  stop(done?: string): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner on stderr with the elapsed seconds; nothing at all when stderr is not a terminal. */
export function spinner(text: string): Spinner {
  if (!process.stderr.isTTY) return { stop: () => {} };
  const started = Date.now();
  let i = 0;
  const draw = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    process.stderr.write(`\r\x1b[2K${FRAMES[i++ % FRAMES.length]} ${text} ${seconds}s`);
  };
  draw();
  const timer = setInterval(draw, 80);
  return {
    stop(done) {
      clearInterval(timer);
      process.stderr.write(`\r\x1b[2K${done ? `${done}\n` : ''}`);
    },
  };
}

/** Runs `work` under a spinner, clearing it whatever happens. */
export async function withSpinner<T>(text: string, work: () => Promise<T>): Promise<T> {
  const s = spinner(text);
  try {
    return await work();
  } finally {
    s.stop();
  }
}

const UNIT_DECIMALS = 18;

/** Base units (wei, 10^-18 token) as a decimal string without trailing zeros: "1500000000000000000" -> "1.5". */
export function formatUnits(units: string | bigint): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(UNIT_DECIMALS);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(UNIT_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An ETH amount typed by a person: a decimal number of ETH (`1`, `0.25`), or base units with a
 * `wei` suffix (`250000000000000000wei`). Returns base units, or null when it is neither.
 */
export function parseEthAmount(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  const wei = /^(\d+)\s*wei$/.exec(trimmed);
  if (wei?.[1]) return BigInt(wei[1]).toString();
  const eth = /^(\d+)(?:\.(\d+))?$/.exec(trimmed);
  if (!eth?.[1]) return null;
  const fraction = eth[2] ?? '';
  if (fraction.length > UNIT_DECIMALS) return null;
  return (
    BigInt(eth[1]) * 10n ** BigInt(UNIT_DECIMALS) +
    BigInt(fraction.padEnd(UNIT_DECIMALS, '0') || '0')
  ).toString();
}

/**
 * Base units rounded for reading, where the figure is a quote anyway (`≈`): 4 decimals from 1 up,
 * 4 significant digits below 1. "12345678901234567" -> "0.01235".
 */
/**
 * An ETH amount's dollars where the service has an ETH/USD price (`reward_usd`, `value_usd`): ` ($12.34)`;
 * nothing without one (null, or a server too old to send the field).
 */
export const usdSuffix = (usd: string | null | undefined): string => (usd == null ? '' : ` ($${usd})`);

export function roughUnits(units: string | bigint): string {
  const value = BigInt(units);
  if (value <= 0n) return formatUnits(value);
  const scale = 10n ** BigInt(UNIT_DECIMALS);
  const digits = value.toString().length;
  const decimals = value >= scale ? 4 : Math.min(UNIT_DECIMALS, UNIT_DECIMALS - digits + 4);
  const step = 10n ** BigInt(UNIT_DECIMALS - decimals);
  return formatUnits(((value + step / 2n) / step) * step);
}
