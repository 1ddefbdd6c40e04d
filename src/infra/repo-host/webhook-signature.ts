import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';

/** GitHub's `X-Hub-Signature-256` value for a payload: `sha256=` + hex HMAC-SHA256 of the raw body. */
export function signWebhook(secret: string, rawBody: Buffer | string): string {
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * True only when the header is exactly the signature of these bytes under this secret. Compared in
 * constant time; an empty secret verifies nothing, so an unconfigured secret cannot be forged.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: Buffer,
  signatureHeader: string | undefined,
): boolean {
  if (!secret || typeof signatureHeader !== 'string' || !signatureHeader.startsWith(PREFIX)) return false;
  const given = signatureHeader.slice(PREFIX.length);
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}
