import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { unavailableChain } from '../src/infra/chain/unavailable-chain.ts';
import { loadConfig } from '../src/infra/config.ts';
import { startTracing, type Tracing } from '../src/infra/telemetry.ts';
import { TestClock } from './helpers/clock.ts';
import { reusableTestDatabase } from './helpers/database.ts';

// Its own file: the OpenTelemetry SDK registers process-wide providers.
interface Export {
  url: string;
  contentType: string;
  body: Buffer;
}

const exports: Export[] = [];
const collector = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    exports.push({
      url: `${req.method} ${req.url}`,
      contentType: String(req.headers['content-type']),
      body: Buffer.concat(chunks),
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let tracing: Tracing;

beforeAll(async () => {
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  const port = (collector.address() as AddressInfo).port;
  tracing = await startTracing({ endpoint: `http://127.0.0.1:${port}/`, scheduledDelayMs: 50 });
});
afterAll(async () => {
  await tracing.shutdown();
  await new Promise((r) => collector.close(r));
});

describe('OpenTelemetry traces', () => {
  it('exports a span of a request to the OTLP endpoint, named by its route', async () => {
    const database = await reusableTestDatabase();
    const app = await buildApp({
      database,
      chain: unavailableChain,
      clock: new TestClock(),
      config: loadConfig({}),
      tracing: tracing.plugin,
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/projects?limit=3' });
      expect(res.statusCode).toBe(200);
      // Spans go out in batches (the database's own may come first): the request's is in one of them.
      const ofRoute = () =>
        exports.find(
          (e) => e.url === 'POST /v1/traces' && e.body.toString('latin1').includes('/api/projects'),
        );
      for (let i = 0; i < 150 && !ofRoute(); i++) await new Promise((r) => setTimeout(r, 20));
      expect(exports.map((e) => e.url)).toContain('POST /v1/traces');
      const sent = ofRoute();
      // OTLP/HTTP in protobuf by default; the route pattern travels as a string attribute.
      expect(sent?.contentType).toMatch(/application\/(x-protobuf|json)/);
      expect(sent, 'no exported batch names the route').toBeDefined();
      // The resource names the service (the exporter sends it with every batch).
      expect(sent?.body.toString('latin1')).toContain('bounty-marketplace');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
