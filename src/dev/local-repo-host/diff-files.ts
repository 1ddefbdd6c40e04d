/**
 * A pull request's files as GitHub lists them (`GET .../pulls/{n}/files`), read from three views of
 * one `git diff base...head` (same options, so the same files in the same order): `--raw -z`
 * (status, blob ids, names), `--numstat -z` (line counts) and the patch text, cut at each
 * `diff --git` line. A line of a hunk never starts with `diff`: hunk lines start with a space,
 * `+`, `-` or `\`.
 */

export interface DiffFile {
  filename: string;
  previousFilename?: string;
  status: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed';
  /** The file's blob at head (at base when removed). */
  blobSha: string;
  additions: number;
  deletions: number;
  /** The hunks (from the first `@@`), or null: binary, only renamed or mode changed, or too large. */
  patch: string | null;
}

/** GitHub sends no patch for a file whose diff is larger than this. */
export const MAX_PATCH_BYTES = 512 * 1024;

const STATUS: Record<string, DiffFile['status']> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

const ZERO = /^0+$/;

interface RawEntry {
  status: DiffFile['status'];
  blobSha: string;
  filename: string;
  previousFilename?: string;
}

/** `git diff --raw -z`: `:mode mode sha sha X\0path\0`, or with two paths for renames and copies. */
function parseRaw(raw: string): RawEntry[] {
  const fields = raw.split('\0');
  const out: RawEntry[] = [];
  let i = 0;
  while (i < fields.length) {
    const meta = fields[i++] ?? '';
    if (meta === '') continue;
    const [, , oldSha = '', newSha = '', code = ''] = meta.slice(1).split(' ');
    const letter = code.charAt(0);
    const status = STATUS[letter] ?? 'modified';
    const first = fields[i++] ?? '';
    const twoPaths = letter === 'R' || letter === 'C';
    const second = twoPaths ? (fields[i++] ?? '') : undefined;
    out.push({
      status,
      blobSha: status === 'removed' || ZERO.test(newSha) ? oldSha : newSha,
      filename: second ?? first,
      ...(twoPaths ? { previousFilename: first } : {}),
    });
  }
  return out;
}

/** `git diff --numstat -z`: `added\tdeleted\tpath\0`, or `added\tdeleted\t\0old\0new\0`; `-` for binary. */
function parseNumstat(numstat: string): { additions: number; deletions: number }[] {
  const fields = numstat.split('\0');
  const out: { additions: number; deletions: number }[] = [];
  let i = 0;
  while (i < fields.length) {
    const entry = fields[i++] ?? '';
    if (entry === '') continue;
    const [added = '', deleted = '', path = ''] = entry.split('\t');
    if (path === '') i += 2; // a rename or copy: the two paths follow
    out.push({ additions: Number(added) || 0, deletions: Number(deleted) || 0 });
  }
  return out;
}

/** The patch of each file, in order: its hunks from the first `@@` line, or null without one. */
function splitPatches(patch: string): (string | null)[] {
  if (patch === '') return [];
  return patch
    .split(/^diff --git /m)
    .slice(1)
    .map((section) => {
      const at = section.search(/^@@/m);
      if (at === -1) return null;
      const hunks = section.slice(at).replace(/\n$/, '');
      return Buffer.byteLength(hunks) > MAX_PATCH_BYTES ? null : hunks;
    });
}

export function parseDiffFiles(raw: string, numstat: string, patch: string): DiffFile[] {
  const entries = parseRaw(raw);
  const counts = parseNumstat(numstat);
  const patches = splitPatches(patch);
  // The three views list the same files; if they ever disagree, no patch is better than a wrong one.
  const aligned = patches.length === entries.length;
  return entries.map((e, i) => ({
    ...e,
    additions: counts[i]?.additions ?? 0,
    deletions: counts[i]?.deletions ?? 0,
    patch: aligned ? (patches[i] ?? null) : null,
  }));
}
