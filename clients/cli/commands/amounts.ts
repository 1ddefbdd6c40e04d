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
