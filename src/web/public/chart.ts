import type { CurveState } from '../../infra/chain/chain.ts';
import { priceAt } from './curve-quotes.ts';
import { formatEth, groupDigits } from './format.ts';

const WAD = 10n ** 18n;
const W = 560;
const H = 260;
/**
 * The labels' largest font size in the SVG's own units: app.css sets 13 at desktop widths and
 * raises it to 16 on a phone (where the picture is shrunk to about 0.6), so the padding is
 * measured for 16. Keep the two in step.
 */
const LABEL_FONT = 16;
/** A generous width of one character of a label (digits, separators) per unit of font size. */
const CHAR_EM = 0.62;
/** The gap between a y label and the axis. */
const LABEL_GAP = 8;
const MARGIN = 6;
const PAD = { right: 24, top: 40, bottom: 52 };

/** The width a label takes at the largest font size, rounded up. */
const labelWidth = (text: string) => Math.ceil(text.length * LABEL_FONT * CHAR_EM);

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
  const yTexts = [formatEth(pMax), '0'];
  // The y labels end at the axis: the left padding is the longest one's width (a tiny price such
  // as "0.000000123457" is wide), so that none is cut at the picture's left edge.
  const padLeft = Math.max(64, MARGIN + LABEL_GAP + Math.max(...yTexts.map(labelWidth)));
  const plotW = W - padLeft - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  // Scaled in bigint first: prices in wei exceed a float's exact range.
  const x = (units: bigint) => padLeft + Number((units * 10_000n) / maxUnits) * (plotW / 10_000);
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
    axis: { x0: padLeft, y0: PAD.top + plotH, x1: W - PAD.right, yTop: PAD.top },
    point,
    ticks,
    yLabels: [
      { y: y(pMax), label: yTexts[0] as string },
      { y: y(0n), label: '0' },
    ],
    /** Where the y labels end (text-anchor end), and where the y axis title starts. */
    yLabelX: padLeft - LABEL_GAP,
    titleX: MARGIN,
    xTitle: `Supply (${symbol})`,
    yTitle: 'ETH per token',
    summary:
      `Price rises linearly from ${formatEth(pMin)} ETH at zero supply to ${formatEth(pMax)} ETH at ` +
      `${groupDigits(maxTokens)} ${symbol}; now ${formatEth(current)} ETH at a supply of ` +
      `${groupDigits(supplyTokens)} ${symbol}.`,
  };
}
