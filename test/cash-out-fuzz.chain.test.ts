/**
 * BondingCurve.sellFor among buys and sells: random interleavings keep the curve solvent and its
 * fee ledger exact, and the gas refund matches what the relayer paid in every state a sale meets.
 * The case-by-case behaviour is in cash-out.chain.test.ts.
 */
import fc from 'fast-check';
import { type LocalAccount, parseEther, parseEventLogs } from 'viem';
import { describe, expect, it } from 'vitest';
import { bondingCurveAbi } from '../src/infra/chain/contracts/BondingCurve.ts';
import {
  balanceOf,
  buyTx,
  curveRead,
  deployPair,
  eth,
  eventFees,
  holders,
  mine,
  paid,
  params,
  relayer,
  relaySale,
  sellTx,
  send,
  supplyOf,
  testClient,
  useFuzzChain,
} from './helpers/cash-out-fuzz.ts';
import { randomRuns } from './helpers/counts.ts';
import { quoteBuy, quoteSell, reserveFor } from './helpers/curve-model.ts';

useFuzzChain();

describe('BondingCurve solvency with sellFor', () => {
  type Op =
    | { kind: 'buy'; who: number; value: bigint }
    | { kind: 'sell'; who: number; permille: bigint }
    | { kind: 'sellFor'; who: number; permille: bigint; maxGasFee: bigint };
  const who = fc.integer({ min: 0, max: holders.length - 1 });
  const permille = fc.bigInt({ min: 1n, max: 1000n });
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('buy' as const),
      who,
      value: fc.bigInt({ min: 1n, max: parseEther('400') }),
    }),
    fc.record({ kind: fc.constant('sell' as const), who, permille }),
    fc.record({
      kind: fc.constant('sellFor' as const),
      who,
      permille,
      // No refund at all, a cap below the real cost, or room to spare.
      maxGasFee: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.constant(10n ** 16n)),
    }),
  );

  it('keeps reserve >= R(supply) and feesAccrued == the fees in the events, and every holder can sell out', async () => {
    const { curve, token } = await deployPair();
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const snapshot = await testClient.snapshot();
        // The model's reserve and the fee ledger summed from the events, from the empty curve.
        let reserve = 0n;
        let fees = 0n;
        const check = async () => {
          const [r, f, supply, balance] = await Promise.all([
            curveRead(curve, 'reserve'),
            curveRead(curve, 'feesAccrued'),
            supplyOf(token),
            eth(curve),
          ]);
          expect([r, f, balance]).toEqual([reserve, fees, reserve + fees]);
          expect(r).toBeGreaterThanOrEqual(reserveFor(params, supply));
          return supply;
        };
        /** Relays a sale; false when the proceeds could not cover the gas (then nothing moved). */
        const sellFor = async (seller: LocalAccount, tokensIn: bigint, maxGasFee: bigint) => {
          const expected = quoteSell(params, await supplyOf(token), tokensIn);
          const [sellerEth, relayerEth] = await Promise.all([eth(seller.address), eth(relayer.address)]);
          const receipt = await relaySale(curve, seller, tokensIn, maxGasFee);
          if (receipt.status === 'reverted') {
            // ProceedsBelowGas: gasFee > proceeds, and gasFee <= maxGasFee.
            expect(expected.ethOut).toBeLessThan(maxGasFee);
            return false;
          }
          const [refund] = parseEventLogs({
            abi: bondingCurveAbi,
            logs: receipt.logs,
            eventName: 'GasRefunded',
          });
          const gasFee = refund?.args.gasFee ?? -1n;
          const cost = paid(receipt);
          expect(gasFee).toBeLessThanOrEqual(maxGasFee);
          if (gasFee < maxGasFee) expect(Math.abs(Number(gasFee - cost))).toBeLessThan(Number(cost) / 50);
          expect(await eth(seller.address)).toBe(sellerEth + expected.ethOut - gasFee);
          expect(await eth(relayer.address)).toBe(relayerEth - cost + gasFee);
          expect(eventFees(receipt)).toBe(expected.fee);
          reserve -= expected.gross;
          fees += eventFees(receipt);
          return true;
        };
        try {
          for (const op of ops) {
            const trader = holders[op.who] as LocalAccount;
            const supply = await supplyOf(token);
            if (op.kind === 'buy') {
              const expected = quoteBuy(params, supply, op.value);
              const receipt = await send(await buyTx(trader, curve, op.value));
              expect(receipt.status).toBe(expected && expected.tokensOut > 0n ? 'success' : 'reverted');
              if (!expected || receipt.status === 'reverted') continue;
              expect(eventFees(receipt)).toBe(expected.fee);
              reserve += expected.net;
              fees += eventFees(receipt);
            } else {
              const tokensIn = ((await balanceOf(token, trader.address)) * op.permille) / 1000n;
              if (tokensIn === 0n) continue;
              if (op.kind === 'sellFor') {
                await sellFor(trader, tokensIn, op.maxGasFee);
              } else {
                const receipt = await mine(await sellTx(trader, curve, tokensIn));
                reserve -= quoteSell(params, supply, tokensIn).gross;
                fees += eventFees(receipt);
              }
            }
            await check();
          }
          // Selling out: relayed where the proceeds cover the gas, directly otherwise.
          for (const trader of holders) {
            const held = await balanceOf(token, trader.address);
            if (held === 0n || (await sellFor(trader, held, 10n ** 16n))) continue;
            const supply = await supplyOf(token);
            fees += eventFees(await mine(await sellTx(trader, curve, held)));
            reserve -= quoteSell(params, supply, held).gross;
          }
          expect(await check()).toBe(0n);
        } finally {
          await testClient.revert({ id: snapshot });
        }
      }),
      // 10 runs on every push, 25 with TEST_FULL=1 (helpers/counts.ts); fast-check prints the seed on a failure.
      { numRuns: randomRuns('CASH_OUT_RUNS', 10, 25) },
    );
  });
});
