import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { childEnv } from './child-env.ts';
import type { PushBody } from './ref-updates.ts';

// CGI output is headers, a blank line, then the body; headers beyond this are not CGI.
const MAX_HEADER_BYTES = 64 * 1024;

export interface GitRequest {
  /** `{dataDir}/repos`: git's project root, and HOME of http-backend. */
  projectRoot: string;
  /** `/{org}/{name}.git/{info/refs | git-upload-pack | git-receive-pack}` */
  pathInfo: string;
  query: string;
  /** The authenticated login, for git's logs and hooks; pushes are checked before git runs. */
  remoteUser?: string;
  /** A push whose commands were already read (and checked) from the request. */
  push?: PushBody;
  log?: FastifyBaseLogger;
}

/**
 * Git's smart HTTP protocol through `git http-backend` (CGI): clone, fetch and push. Who may push
 * is decided by the caller before this runs; pushes are enabled by `http.receivepack` in each
 * repository's config.
 */
export function serveGit(req: IncomingMessage, res: ServerResponse, g: GitRequest): void {
  const { pathInfo, push, log } = g;
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v.join(', ') : (v ?? '');
  };
  const env = childEnv(g.projectRoot, {
    GIT_PROJECT_ROOT: g.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    GATEWAY_INTERFACE: 'CGI/1.1',
    SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: pathInfo,
    QUERY_STRING: g.query,
    CONTENT_TYPE: header('content-type'),
    REMOTE_ADDR: req.socket.remoteAddress ?? '',
    ...(g.remoteUser ? { REMOTE_USER: g.remoteUser } : {}),
    // Protocol v2 is negotiated through this variable; gzip request bodies are inflated by git,
    // unless the push check already inflated it.
    GIT_PROTOCOL: header('git-protocol'),
    HTTP_CONTENT_ENCODING: push?.decoded ? '' : header('content-encoding'),
  });
  // Without CONTENT_LENGTH (chunked pushes) http-backend reads the body to its end.
  if (push?.decoded) env.CONTENT_LENGTH = String(push.head.length);
  else if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];

  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const fail = (err: unknown) => {
    log?.error({ err, pathInfo, stderr }, 'git http-backend failed');
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('git http-backend failed\n');
    } else res.destroy();
  };
  child.on('error', fail);
  child.stdin.on('error', () => {}); // git may stop reading early, e.g. on a refused push
  if (push) child.stdin.write(push.head);
  if (!push || push.rest) {
    req.pipe(child.stdin);
    req.resume();
  } else child.stdin.end();
  res.on('close', () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  });

  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf('\r\n\r\n');
    const lf = head.indexOf('\n\n');
    const end = crlf !== -1 && (lf === -1 || crlf < lf) ? crlf + 4 : lf !== -1 ? lf + 2 : -1;
    if (end === -1) {
      if (head.length > MAX_HEADER_BYTES) {
        child.kill('SIGTERM');
        fail(new Error('CGI headers too long'));
      }
      return;
    }
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
      else res.appendHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end));
  });
  child.on('close', (code) => {
    if (!headersDone) fail(new Error(`git http-backend exited with ${code} before answering`));
    else res.end();
  });
}
