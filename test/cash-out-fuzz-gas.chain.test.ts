import { type LocalAccount, parseEther, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import {
  alice,
  balanceOf,
  bob,
  buyTx,
  deployPair,
  mine,
  params,
  relaySale,
  sellTx,
  supplyOf,
  transferTx,
  useFuzzChain,
} from './helpers/cash-out-fuzz.ts';
import { quoteBuy } from './helpers/curve-model.ts';

useFuzzChain();

describe('sellFor gas', () => {
  it('refunds the gas paid within 1% whatever state the sale meets, and costs this much more than sell', async () => {
    const { curve, token } = await deployPair();
    const bought = quoteBuy(params, 0n, parseEther('1'))?.tokensOut ?? 0n;
    await mine(await buyTx(alice, curve, parseEther('1')));
    const seller = privateKeyToAccount(generatePrivateKey());
    const latecomer = privateKeyToAccount(generatePrivateKey());
    await mine(await transferTx(alice, token, seller.address, bought / 4n));
    await mine(await transferTx(alice, token, bob.address, bought / 4n));

    // The same sale, partial and by a holder with ETH, sent directly and relayed.
    const direct = await mine(await sellTx(bob, curve, bought / 16n));
    const relayed = await relaySale(curve, bob, bought / 16n, 10n ** 16n);
    console.log(`gas: sell ${direct.gasUsed}, sellFor ${relayed.gasUsed}`);
    expect(relayed.gasUsed - direct.gasUsed).toBeGreaterThan(20_000n);
    expect(relayed.gasUsed - direct.gasUsed).toBeLessThan(60_000n);
    await mine(await sellTx(bob, curve, await balanceOf(token, bob.address)));
    await mine(await transferTx(alice, token, latecomer.address, await balanceOf(token, alice.address)));

    // Each case meets different storage: a seller account the payment creates or one already there,
    // a balance or the whole supply cleared (refunded to the relayer at the end of the transaction).
    const cases: [string, LocalAccount, bigint | 'all'][] = [
      ['new seller account, part of the balance', seller, bought / 16n],
      ['existing seller account, part of the balance', seller, bought / 16n],
      ['existing seller account, whole balance', seller, 'all'],
      ['new seller account, whole remaining supply', latecomer, 'all'],
    ];
    for (const [what, holder, amount] of cases) {
      const tokensIn = amount === 'all' ? await balanceOf(token, holder.address) : amount;
      const receipt = await relaySale(curve, holder, tokensIn, 10n ** 16n);
      expect(receipt.status).toBe('success');
      const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
      const charged = (refund?.args.gasFee ?? 0n) / receipt.effectiveGasPrice;
      console.log(`sellFor, ${what}: gasUsed ${receipt.gasUsed}, refunded for ${charged} gas`);
      expect(Math.abs(Number(charged - receipt.gasUsed))).toBeLessThan(Number(receipt.gasUsed) / 100);
    }
    expect(await supplyOf(token)).toBe(0n);
  });
});
