import type { CurveState } from '../../infra/chain/chain.ts';
import { priceAt } from './curve-quotes.ts';
import { formatEth, groupDigits } from './format.ts';

const WAD = 10n ** 18n;
const W = 560;
const H = 260;
const PAD = { left: 84, right: 24, top: 34, bottom: 48 };

/**
 * Geometry of the server-rendered SVG of the curve: price (ETH per token) against supply, with
 * the current supply marked. The template draws it; no script, no chart library. The x axis runs
 * to twice the current supply (at least 1,000 tokens) so the point sits inside the picture.
 */
export function curveChart(c: CurveState, symbol: string) {
  const supplyTokens = c.supplyUnits / WAD;
  const maxTokens = supplyTokens * 2n > 1000n ? supplyTokens * 2n : 1000n;
  const maxUnits = maxTokens * WAD;
  const pMin = priceAt(c, 0n);
  const pMax = priceAt(c, maxUnits);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  // Scaled in bigint first: prices in wei exceed a float's exact range.
  const x = (units: bigint) => PAD.left + Number((units * 10_000n) / maxUnits) * (plotW / 10_000);
  const y = (wei: bigint) =>
    PAD.top + plotH - Number((wei * 10_000n) / (pMax === 0n ? 1n : pMax)) * (plotH / 10_000);
  const current = priceAt(c, c.supplyUnits);
  const point = { x: x(c.supplyUnits), y: y(current) };
  // The last label ends at its tick, so it stays inside the picture.
  const ticks = [0n, maxUnits / 2n, maxUnits].map((u, i) => ({
    x: x(u),
    label: groupDigits(u / WAD),
    anchor: i === 2 ? 'end' : 'middle',
  }));
  return {
    width: W,
    height: H,
    line: { x1: x(0n), y1: y(pMin), x2: x(maxUnits), y2: y(pMax) },
    axis: { x0: PAD.left, y0: PAD.top + plotH, x1: W - PAD.right, yTop: PAD.top },
    point,
    ticks,
    yLabels: [
      { y: y(pMax), label: formatEth(pMax) },
      { y: y(0n), label: '0' },
    ],
    xTitle: `Supply (${symbol})`,
    yTitle: 'ETH per token',
    summary:
      `Price rises linearly from ${formatEth(pMin)} ETH at zero supply to ${formatEth(pMax)} ETH at ` +
      `${groupDigits(maxTokens)} ${symbol}; now ${formatEth(current)} ETH at a supply of ` +
      `${groupDigits(supplyTokens)} ${symbol}.`,
  };
}
