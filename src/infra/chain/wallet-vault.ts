import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { getAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/**
 * A custodial wallet's key at rest. The private key is encrypted with its own random data key
 * (AES-256-GCM); the data key is encrypted ("wrapped") with the master key. Both encryptions bind
 * the wallet address as associated data, so a sealed key copied onto another wallet's row does not
 * decrypt. The master key never touches the database; rotating it re-wraps data keys only.
 */
export interface SealedKey {
  address: string;
  /** iv (12) | tag (16) | ciphertext (32), base64. */
  encryptedKey: string;
  /** iv (12) | tag (16) | wrapped data key (32), base64. */
  wrappedDataKey: string;
}

const IV = 12;
const TAG = 16;

function seal(key: Buffer, plaintext: Buffer, aad: Buffer): string {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function open(key: Buffer, sealed: string, aad: Buffer): Buffer {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV));
  decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(IV, IV + TAG));
  return Buffer.concat([decipher.update(raw.subarray(IV + TAG)), decipher.final()]);
}

export class WalletVault {
  private readonly masterKey: Buffer;

  /** `masterKeyHex`: 32 bytes as 64 hex digits. */
  constructor(masterKeyHex: string) {
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(masterKeyHex))
      throw new Error('The wallet master key must be 32 bytes in hex.');
    this.masterKey = Buffer.from(masterKeyHex.replace(/^0x/, ''), 'hex');
  }

  /** A fresh key pair, sealed. The plaintext key exists only inside this call. */
  create(): SealedKey {
    const privateKey = generatePrivateKey();
    const address = privateKeyToAccount(privateKey).address;
    const aad = Buffer.from(address.toLowerCase());
    const dataKey = randomBytes(32);
    try {
      return {
        address,
        encryptedKey: seal(dataKey, Buffer.from(privateKey.slice(2), 'hex'), aad),
        wrappedDataKey: seal(this.masterKey, dataKey, aad),
      };
    } finally {
      dataKey.fill(0);
    }
  }

  /** The private key of a sealed wallet; throws if anything was tampered with or swapped. */
  unseal(sealed: SealedKey): Hex {
    const aad = Buffer.from(sealed.address.toLowerCase());
    const dataKey = open(this.masterKey, sealed.wrappedDataKey, aad);
    try {
      const key = `0x${open(dataKey, sealed.encryptedKey, aad).toString('hex')}` as Hex;
      if (getAddress(privateKeyToAccount(key).address) !== getAddress(sealed.address)) {
        throw new Error('The sealed key does not belong to its address.');
      }
      return key;
    } finally {
      dataKey.fill(0);
    }
  }
}
