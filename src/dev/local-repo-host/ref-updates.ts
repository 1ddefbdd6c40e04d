import type { IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { type Actor, maintains, sameLogin } from './auth.ts';
import type { StoredRepo } from './store.ts';

/**
 * The ref update commands at the start of a `git-receive-pack` request, read before git sees
 * the push, so that who may move which branch is decided here, answered with a real 403. What
 * cannot be parsed is refused: the check fails closed.
 */

export interface RefUpdate {
  oldSha: string;
  newSha: string;
  ref: string;
}

export const DEFAULT_BRANCH = 'main';
const MAX_COMMANDS_BYTES = 1024 * 1024;
const MAX_GZIP_BYTES = 256 * 1024 * 1024;
const SHA = '[0-9a-f]{40}|[0-9a-f]{64}';
const COMMAND = new RegExp(`^(${SHA}) (${SHA}) (refs/\\S+)$`);
const isZero = (sha: string) => /^0+$/.test(sha);

type Parsed = { updates: RefUpdate[]; end: number } | 'more' | 'invalid';

/** pkt-lines: the commands (optionally after `shallow` lines), then a flush-pkt, then the pack. */
export function parseRefUpdates(buf: Buffer): Parsed {
  const updates: RefUpdate[] = [];
  let pos = 0;
  for (;;) {
    if (buf.length < pos + 4) return 'more';
    const hex = buf.toString('latin1', pos, pos + 4);
    if (!/^[0-9a-f]{4}$/.test(hex)) return 'invalid';
    const len = Number.parseInt(hex, 16);
    if (len === 0) return updates.length > 0 ? { updates, end: pos + 4 } : 'invalid';
    if (len < 5) return 'invalid';
    if (buf.length < pos + len) return 'more';
    let line = buf.toString('utf8', pos + 4, pos + len);
    pos += len;
    // The first command carries the client's capabilities after a NUL.
    const nul = line.indexOf('\0');
    if (nul !== -1) line = line.slice(0, nul);
    line = line.replace(/\n$/, '');
    if (updates.length === 0 && line.startsWith('shallow ')) continue;
    const m = COMMAND.exec(line);
    if (!m) return 'invalid'; // signed pushes (push-cert) included: not supported here
    updates.push({ oldSha: m[1] as string, newSha: m[2] as string, ref: m[3] as string });
  }
}

export interface PushBody {
  updates: RefUpdate[];
  /** The bytes read so far (all of them when `rest` is false), to hand to git first. */
  head: Buffer;
  /** Whether the rest of the request still has to be piped after `head`. */
  rest: boolean;
  /** Set when `head` is the decompressed body of a gzip request. */
  decoded: boolean;
}

/** Reads up to the end of the commands (the whole body when gzipped); null when malformed. */
export async function readPushBody(req: IncomingMessage): Promise<PushBody | null> {
  const encoding = (req.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip') {
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_GZIP_BYTES) return null;
      chunks.push(chunk);
    }
    let plain: Buffer;
    try {
      plain = gunzipSync(Buffer.concat(chunks), { maxOutputLength: MAX_GZIP_BYTES });
    } catch {
      return null;
    }
    const parsed = parseRefUpdates(plain);
    return typeof parsed === 'object'
      ? { updates: parsed.updates, head: plain, rest: false, decoded: true }
      : null;
  }
  if (encoding !== '' && encoding !== 'identity') return null;
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const finish = (result: PushBody | null) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', reject);
      req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const parsed = parseRefUpdates(head);
      if (parsed === 'more' && head.length <= MAX_COMMANDS_BYTES) return;
      finish(
        typeof parsed === 'object' ? { updates: parsed.updates, head, rest: true, decoded: false } : null,
      );
    };
    const onEnd = () => finish(null);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/**
 * Why the actor may not make these updates, or null when it may. The founder (and the platform)
 * may update anything; any agent may create and update branches, except the default branch and
 * the head branch of another agent's open pull request (which would change that agent's work).
 */
export function refusedUpdate(updates: RefUpdate[], actor: Actor, repo: StoredRepo): string | null {
  if (maintains(repo, actor)) return null;
  for (const { ref, newSha } of updates) {
    if (!ref.startsWith('refs/heads/')) return `Only the project's founder may update ${ref}.`;
    const branch = ref.slice('refs/heads/'.length);
    if (branch === DEFAULT_BRANCH)
      return `Only the project's founder may push to ${DEFAULT_BRANCH}; push a branch and open a pull request.`;
    const owned = repo.pulls.find(
      (p) => p.state === 'open' && p.head === branch && !sameLogin(p.authorLogin, actor.login),
    );
    if (owned)
      return `${branch} is the head of pull request #${owned.number} by another agent; ${isZero(newSha) ? 'deleting' : 'updating'} it is refused.`;
  }
  return null;
}
