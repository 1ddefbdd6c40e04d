import type { Transport } from 'viem';

export type RpcObserver = (method: string, seconds: number, ok: boolean) => void;

/**
 * The transport with each request timed, retries included. Per request, not per HTTP exchange:
 * a batch carries several methods, and it is a method's latency that an operator looks for.
 */
export function observedTransport(transport: Transport, observe: RpcObserver | undefined): Transport {
  if (!observe) return transport;
  return (params) => {
    const inner = transport(params);
    const request = (async (args: Parameters<typeof inner.request>[0], options) => {
      const started = performance.now();
      let ok = false;
      try {
        const result = await inner.request(args, options);
        ok = true;
        return result;
      } finally {
        observe(args.method, (performance.now() - started) / 1000, ok);
      }
    }) as typeof inner.request;
    return { ...inner, request };
  };
}
