import { formatEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { ethAmount, tokenAmount } from '../src/web/console/format.ts';
import {
  amountOf,
  amountOfDecimal,
  exactUnits,
  formatEth,
  formatTokenUnits,
  formatUnits,
} from '../src/web/public/format.ts';

/** The one amount formatter of every page (public pages and console): units to text for people. */

const E = 10n ** 18n;

describe('formatUnits', () => {
  it('turns 18-decimal units into grouped, rounded text with at most 6 significant digits', () => {
    expect(formatUnits(494877548106190203700365n)).toBe('494,878');
    expect(formatUnits(499802306170982308n)).toBe('0.499802');
    expect(formatUnits(1234n * E + E / 2n)).toBe('1,234.5');
    expect(formatUnits(475n * 10n ** 17n)).toBe('47.5');
    expect(formatUnits(25n * 10n ** 17n)).toBe('2.5');
    expect(formatUnits(95n * E)).toBe('95');
    expect(formatUnits(1000n * E)).toBe('1,000');
    expect(formatUnits(123456789n * 10n ** 12n)).toBe('123.457');
  });

  it('rounds half up, carrying into the whole part and past a thousands boundary', () => {
    expect(formatUnits(1234565n * 10n ** 12n)).toBe('1.23457'); // 1.234565 -> 1.23457
    expect(formatUnits(1234564n * 10n ** 12n)).toBe('1.23456');
    expect(formatUnits(999_999_600_000_000_000n)).toBe('1');
    expect(formatUnits(9_999_995n * 10n ** 14n)).toBe('1,000');
    expect(formatUnits(999_999n * E + E / 2n)).toBe('1,000,000');
    expect(formatUnits(9_999_995n * 10n ** 9n)).toBe('0.01'); // 0.009999995
  });

  it('keeps the whole part of huge values, grouped, and drops their decimals', () => {
    expect(formatUnits(2n ** 256n - 1n)).toBe(
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,458',
    );
    expect(formatUnits(1_000_000_000n * E + 1n)).toBe('1,000,000,000');
  });

  it('keeps the first significant digits of tiny values', () => {
    expect(formatUnits(1n)).toBe('0.000000000000000001');
    expect(formatUnits(1234567n)).toBe('0.00000000000123457');
    expect(formatUnits(1234500000000000n)).toBe('0.0012345');
    expect(formatUnits(0n)).toBe('0');
  });

  it('signs negative values and takes other decimals', () => {
    expect(formatUnits(-1500n * E)).toBe('-1,500');
    expect(formatUnits(-1n)).toBe('-0.000000000000000001');
    expect(formatUnits(123456789n, 6)).toBe('123.457');
    expect(formatUnits(1234567n, 0)).toBe('1,234,567');
    expect(formatUnits('500000000000000000')).toBe('0.5');
  });

  it('never shows more than 6 significant digits unless the whole part needs them', () => {
    for (const units of [1n, 7n * 10n ** 11n, 123456789012345678n, 98765432109876543210n, 3n * E + 1n]) {
      const digits = formatUnits(units)
        .replace(/[^0-9]/g, '')
        .replace(/^0+/, '');
      const whole = (units / E).toString();
      expect(digits.length).toBeLessThanOrEqual(Math.max(6, whole === '0' ? 0 : whole.length));
    }
  });
});

describe('the exact value (for a title attribute)', () => {
  it('has every digit, ungrouped, as viem formats ETH', () => {
    for (const u of [0n, 1n, 499802306170982308n, 494877548106190203700365n, 1234n * E, -5n]) {
      expect(exactUnits(u)).toBe(formatEther(u));
    }
    expect(amountOf(494877548106190203700365n)).toEqual({
      text: '494,878',
      exact: '494877.548106190203700365',
    });
  });

  it('reads the exact decimals the API gives funds in', () => {
    expect(amountOfDecimal('1000')).toEqual({ text: '1,000', exact: '1000' });
    expect(amountOfDecimal('-12.3456789')).toEqual({ text: '-12.3457', exact: '-12.3456789' });
    expect(amountOfDecimal('0.000001')).toEqual({ text: '0.000001', exact: '0.000001' });
  });
});

describe('one implementation everywhere', () => {
  it('public and console formatters agree', () => {
    for (const u of [1n, 5n * 10n ** 15n, 95n * E, 494877548106190203700365n]) {
      expect(formatEth(u)).toBe(formatUnits(u));
      expect(formatTokenUnits(u)).toBe(formatUnits(u));
      expect(ethAmount(u)).toEqual(amountOf(u));
      expect(tokenAmount(u)).toEqual(amountOf(u));
      expect(ethAmount(u.toString())).toEqual(amountOf(u));
    }
  });
});
