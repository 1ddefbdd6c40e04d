/**
 * BondingCurve.sellFor against its limits: the gas against the proceeds, minEthOut and the maxGasFee cap.
 * The rest of sellFor is in cash-out.chain.test.ts.
 */
import { parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import {
  fundedSeller,
  mine,
  paid,
  params,
  pub,
  revertName,
  sale,
  sendSellFor,
  signSale,
  simulateSellFor,
  state,
  useCashOutChain,
  wallet,
} from './helpers/cash-out.ts';
import { quoteSell } from './helpers/curve-model.ts';

useCashOutChain();

describe('BondingCurve.sellFor', () => {
  it('reverts when the gas exceeds the proceeds or the rest misses minEthOut, and caps the refund at maxGasFee', async () => {
    const { curve, token, seller, held } = await fundedSeller();
    const tiny = sale(seller.address, 10n ** 9n);
    const before = await state(curve, token, seller.address, tiny.nonce);
    const tinySig = await signSale(seller, curve, tiny);
    expect(await revertName(simulateSellFor(curve, tiny, tinySig))).toBe('ProceedsBelowGas');
    expect((await sendSellFor(curve, tiny, tinySig)).status).toBe('reverted');
    expect(await state(curve, token, seller.address, tiny.nonce)).toEqual(before);

    const proceeds = quoteSell(params, before.supply, held / 5n).ethOut;
    const greedy = sale(seller.address, held / 5n, { minEthOut: proceeds });
    expect(await revertName(simulateSellFor(curve, greedy, await signSale(seller, curve, greedy)))).toBe(
      'SlippageEthOut',
    );

    // A cap far below the real cost: the relayer gets the cap and bears the rest.
    const capped = sale(seller.address, held / 5n, {
      maxGasFee: 10n ** 12n,
      minEthOut: proceeds - 10n ** 12n,
    });
    const sig = await signSale(seller, curve, capped);
    const receipt = await mine(
      await wallet.writeContract((await simulateSellFor(curve, capped, sig)).request),
    );
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
    expect(refund?.args.gasFee).toBe(10n ** 12n);
    expect(paid(receipt)).toBeGreaterThan(10n ** 12n);
    expect(await pub.getBalance({ address: seller.address })).toBe(proceeds - 10n ** 12n);
  });
});
