import type { LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup } from './url-guard.ts';

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  /** The start of the receiver's answer (at most MAX_RESPONSE_BYTES); the verification reads it. */
  body?: string;
}

/** How a delivery is POSTed; tests may stand in for it, `postJson` is the real one. */
export type Sender = (req: {
  url: URL;
  addresses: LookupAddress[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}) => Promise<SendResult>;

// Deliveries ignore the answer and a verification needs only its challenge; reading a little of
// it lets the connection finish cleanly, and no receiver can make us buffer more.
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs to the URL, connecting only to the given (already checked) addresses. Redirects are not
 * followed: a 3xx is a failed attempt, since following one could lead to an unchecked target.
 * The whole exchange is bounded by `timeoutMs`.
 */
export const postJson: Sender = ({ url, addresses, headers, body, timeoutMs }) =>
  new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(addresses) as never,
      // No pooled sockets: every delivery resolves and connects afresh to its checked address.
      agent: false,
    });
    const timer = setTimeout(() => {
      done({ statusCode: null, error: `timed out after ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      let received = 0;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        if (received < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - received));
        received += chunk.length;
        if (received > MAX_RESPONSE_BYTES) res.destroy();
      });
      const finish = () =>
        done({
          statusCode: status,
          error: status >= 300 && status < 400 ? 'redirects are not followed' : null,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ statusCode: null, error: err.code ?? err.message }),
    );
    req.end(body);
  });
