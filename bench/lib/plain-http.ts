import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Value from 'typebox/value';
import { AnswerTags } from '../../src/infra/http/http-cache.ts';
import { BountyListQuery } from '../../src/modules/bounties/bounties.schemas.ts';

/**
 * The list's own work without the framework: a bare `node:http` server answering every request
 * with what `GET /api/bounties` sends for one query (`BountiesService.listJson`, encoded and
 * its ETag kept by `AnswerTags`, the same headers). No routing, validation, hooks or
 * plugins. Run at the same concurrency as the service, it shows how much of the service's CPU per
 * request is the list itself (driver, answer, ETag, HTTP) and how much is Fastify's and the hooks'.
 */
export async function plainListServer(
  listJson: (q: BountyListQuery) => Promise<string>,
  path: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const query = queryOf(path);
  const tags = new AnswerTags();
  const server = createServer((_req, res) => {
    listJson(query).then(
      (json) => {
        const answer = tags.of(path, json);
        sendAnswer(res, answer.body, answer.etag);
      },
      (err: unknown) => {
        res.writeHead(500).end(String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * HTTP alone: a bare `node:http` server sending `answer` (the list's bytes, as the service sent
 * them) with the same headers to every request, with no database. Its CPU per request is what
 * serving the answer costs any Node server on this machine, next to the bare driver loop's for
 * the query.
 */
export async function fixedAnswerServer(
  answer: Buffer,
  etag: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => sendAnswer(res, answer, etag));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The list's answer with the headers `GET /api/bounties` sends with it. */
function sendAnswer(res: ServerResponse, body: Buffer, etag: string): void {
  res.writeHead(200, {
    etag,
    'cache-control': 'no-cache',
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  });
  res.end(body);
}

/** The route's query for `path` as its schema reads it: numbers from text, its defaults filled in. */
function queryOf(path: string): BountyListQuery {
  const raw = Object.fromEntries(new URL(path, 'http://x').searchParams);
  return Value.Parse(BountyListQuery, Value.Default(BountyListQuery, Value.Convert(BountyListQuery, raw)));
}
