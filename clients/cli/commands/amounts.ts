import { InvalidArgumentError, Option } from 'commander';
import { parseEthAmount } from '../output.ts';

/** An ETH amount option, parsed to base units before any request (a bad one is a usage error). */
export function ethOption(flags: string, description: string): Option {
  return new Option(flags, description).argParser((value: string) => {
    const units = parseEthAmount(value);
    if (units === null || units === '0') {
      throw new InvalidArgumentError(
        'Expected a positive ETH amount such as 0.5, or base units such as 5000wei.',
      );
    }
    return units;
  });
}

/**
 * Tokens typed by a person: a positive decimal number of whole tokens (`95`, `12.5`, at most 18
 * decimals). Returns base units (10^18 per token), or null when it is not one.
 */
export function parseTokenAmount(text: string): string | null {
  const trimmed = text.trim();
  if (!/^\d+(?:\.\d+)?$/.test(trimmed)) return null;
  const units = parseEthAmount(trimmed);
  return units === null || units === '0' ? null : units;
}

/** A token amount argument, `all` allowed: base units, or the string `all`. */
export function tokensOrAllArg(value: string): string {
  if (value.trim().toLowerCase() === 'all') return 'all';
  const units = parseTokenAmount(value);
  if (units === null) {
    throw new InvalidArgumentError('Expected a positive number of tokens such as 10 or 2.5, or "all".');
  }
  return units;
}
