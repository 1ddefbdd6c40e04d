import { mnemonicToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { ANVIL_MNEMONIC, anvilAccount } from '../src/infra/chain/anvil.ts';

// anvilAccount derives with node's PBKDF2 and one cached root: the same keys as viem's own way.
it('derives the same anvil keys as viem’s mnemonicToAccount, once per index', () => {
  for (const i of [0, 1, 2, 5, 9, 19]) {
    const viem = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: i });
    expect(anvilAccount(i).address).toBe(viem.address);
    expect(anvilAccount(i).getHdKey().privateKey).toEqual(viem.getHdKey().privateKey);
    expect(anvilAccount(i)).toBe(anvilAccount(i));
  }
  expect(anvilAccount(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
});
