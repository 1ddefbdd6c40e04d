import { randomBytes } from 'node:crypto';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { WalletVault } from '../src/infra/chain/wallet-vault.ts';

const masterKey = () => randomBytes(32).toString('hex');

describe('wallet vault', () => {
  it('creates a key pair whose sealed key opens to the same address', () => {
    const vault = new WalletVault(masterKey());
    const sealed = vault.create();
    expect(sealed.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const key = vault.unseal(sealed);
    expect(privateKeyToAccount(key).address).toBe(sealed.address);
  });

  it('never stores the private key in the clear', () => {
    const vault = new WalletVault(masterKey());
    const sealed = vault.create();
    const key = vault.unseal(sealed).slice(2);
    const stored = JSON.stringify(sealed);
    expect(stored).not.toContain(key);
    expect(Buffer.from(sealed.encryptedKey, 'base64').toString('hex')).not.toContain(key);
  });

  it('does not open with another master key', () => {
    const sealed = new WalletVault(masterKey()).create();
    expect(() => new WalletVault(masterKey()).unseal(sealed)).toThrow();
  });

  it('binds the address: a sealed key moved to another wallet does not open', () => {
    const vault = new WalletVault(masterKey());
    const a = vault.create();
    const b = vault.create();
    expect(() => vault.unseal({ ...a, address: b.address })).toThrow();
    expect(() => vault.unseal({ ...a, wrappedDataKey: b.wrappedDataKey })).toThrow();
  });

  it('detects tampering', () => {
    const vault = new WalletVault(masterKey());
    const sealed = vault.create();
    const raw = Buffer.from(sealed.encryptedKey, 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => vault.unseal({ ...sealed, encryptedKey: raw.toString('base64') })).toThrow();
  });

  it('refuses a master key of the wrong size', () => {
    expect(() => new WalletVault('abcd')).toThrow(/32 bytes/);
  });
});
