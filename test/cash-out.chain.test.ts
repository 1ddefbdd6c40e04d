/**
 * Cashing out without ETH: the holder signs a sale, the platform's relayer sends it and is paid its
 * gas back out of the proceeds (BondingCurve.sellFor). The token side (relayedTransfer) is in
 * cash-out-token.chain.test.ts; random interleavings and the gas figures in cash-out-fuzz.
 */
import { type Hex, type LocalAccount, parseEventLogs, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import { projectFactoryAbi } from '../src/infra/chain/contracts/ProjectFactory.ts';
import {
  BASE_FEE,
  buyer,
  FEES,
  factory,
  fundedSeller,
  mine,
  otherRelayer,
  paid,
  params,
  pub,
  relayer,
  revertName,
  type Sale,
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
  it('pays a seller without ETH the proceeds minus the gas, and the relayer what its transaction cost', async () => {
    expect(
      await pub.readContract({ address: factory, abi: projectFactoryAbi, functionName: 'VERSION' }),
    ).toBe(3n);
    const { curve, token, seller, held } = await fundedSeller();
    const m = sale(seller.address, held / 3n);
    const before = await state(curve, token, seller.address, m.nonce);
    expect(before.eth).toBe(0n);
    const expected = quoteSell(params, before.supply, m.tokensIn);
    const relayerBefore = await pub.getBalance({ address: relayer.address });

    const signature = await signSale(seller, curve, m);
    const simulated = await simulateSellFor(curve, m, signature);
    const receipt = await mine(await wallet.writeContract(simulated.request));
    const [sold] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'Sold' });
    const [refund] = parseEventLogs({ abi: bondingCurveAbi, logs: receipt.logs, eventName: 'GasRefunded' });
    const gasFee = refund?.args.gasFee ?? 0n;
    const ethOut = expected.ethOut - gasFee;

    expect(receipt.effectiveGasPrice).toBe(BASE_FEE + FEES.maxPriorityFeePerGas);
    // A simulation prices the gas at its own block's base fee, but splits the same proceeds.
    expect(simulated.result[0] + simulated.result[1]).toBe(expected.ethOut);
    expect(refund?.args).toEqual({
      relayer: relayer.address,
      seller: seller.address,
      gasFee,
      nonce: m.nonce,
    });
    expect(sold?.args).toEqual({
      seller: seller.address,
      tokensIn: m.tokensIn,
      ethOut,
      fee: expected.fee,
      supplyAfter: before.supply - m.tokensIn,
    });
    const cost = paid(receipt);
    const error = Number(gasFee - cost) / Number(cost);
    console.log(`sellFor refund ${gasFee} wei vs paid ${cost} wei (${(error * 100).toFixed(3)}%)`);
    expect(Math.abs(error)).toBeLessThan(0.02);
    expect(await pub.getBalance({ address: relayer.address })).toBe(relayerBefore - cost + gasFee);
    expect(await state(curve, token, seller.address, m.nonce)).toEqual({
      reserve: before.reserve - expected.gross,
      feesAccrued: before.feesAccrued + expected.fee,
      supply: before.supply - m.tokensIn,
      tokens: before.tokens - m.tokensIn,
      eth: ethOut,
      used: true,
    });
  });

  it('refuses a forged, replayed, misrouted, expired or altered authorization and moves nothing', async () => {
    const { curve, token, seller, held } = await fundedSeller();
    const m = sale(seller.address, held / 4n, { minEthOut: 1n });
    const signature = await signSale(seller, curve, m);
    const latest = await pub.getBlock();
    const expired = sale(seller.address, held / 4n, { deadline: latest.timestamp - 1n });
    const cases: [string, Sale, Hex, LocalAccount][] = [
      ['InvalidSignature', m, await signSale(buyer, curve, m), relayer],
      ['InvalidSignature', m, signature, otherRelayer],
      ['AuthorizationExpired', expired, await signSale(seller, curve, expired), relayer],
      ['InvalidSignature', { ...m, tokensIn: m.tokensIn + 1n }, signature, relayer],
      ['InvalidSignature', { ...m, minEthOut: 0n }, signature, relayer],
      ['InvalidSignature', { ...m, maxGasFee: m.maxGasFee + 1n }, signature, relayer],
      ['InvalidSignature', { ...m, seller: zeroAddress }, `0x${'00'.repeat(65)}`, relayer],
      ['InvalidSignature', m, `${signature}00`, relayer],
    ];
    for (const [error, message, sig, account] of cases) {
      const before = await state(curve, token, seller.address, message.nonce);
      expect(await revertName(simulateSellFor(curve, message, sig, account))).toBe(error);
      const receipt = await sendSellFor(curve, message, sig, account);
      expect(receipt.status).toBe('reverted');
      expect(await state(curve, token, seller.address, message.nonce)).toEqual(before);
    }

    await mine(await wallet.writeContract((await simulateSellFor(curve, m, signature)).request));
    const before = await state(curve, token, seller.address, m.nonce);
    expect(await revertName(simulateSellFor(curve, m, signature))).toBe('AuthorizationAlreadyUsed');
    expect((await sendSellFor(curve, m, signature)).status).toBe('reverted');
    expect(await state(curve, token, seller.address, m.nonce)).toEqual(before);
  });
});
