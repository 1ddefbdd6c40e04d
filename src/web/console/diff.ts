import type { PullRequestFile } from '../../infra/repo-host/repo-host.ts';

/**
 * A pull request's files as the review queue shows them: each patch split into lines the template
 * renders one by one (added, removed, context, hunk header), as text: Eta escapes every line, and
 * nothing is highlighted. Long patches and files without one are folded; long lists are cut.
 */

/** A patch of more lines than this is folded: shown when the founder opens it. */
export const FOLD_LINES = 400;
/** At most this many files are shown per pull request; the rest are counted. */
export const MAX_FILES = 50;
/** A patch renders at most this many lines, folded or not; the rest is on the pull request. */
export const MAX_LINES = 3000;

export type DiffLineKind = 'add' | 'del' | 'ctx' | 'hunk' | 'meta';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line as the patch has it, its `+`, `-` or space included (so meaning is not colour alone). */
  text: string;
  /** Its number in the new file (added and context lines) or in the old one (removed); null for headers. */
  n: number | null;
}

export interface DiffFileView {
  filename: string;
  status: string;
  additions: number;
  deletions: number;
  /** False when the host sent no patch (binary, only renamed, or too large for it). */
  hasPatch: boolean;
  /** The patch's lines, at most MAX_LINES of them. */
  lines: DiffLine[];
  /** How many lines the patch has. */
  lineCount: number;
  /** Lines left out (over MAX_LINES). */
  cut: number;
  /** Shown collapsed: a patch over FOLD_LINES lines, or none at all. */
  folded: boolean;
}

export interface DiffView {
  files: DiffFileView[];
  /** Files of the pull request not shown here (over MAX_FILES, or more than the host listed). */
  more: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** A unified diff's lines, numbered from its hunk headers; `limit` lines at most. */
export function parsePatch(patch: string, limit = MAX_LINES): { lines: DiffLine[]; count: number } {
  const raw = patch.split('\n');
  if (raw.at(-1) === '') raw.pop();
  const lines: DiffLine[] = [];
  let oldN = 0;
  let newN = 0;
  for (const full of raw.slice(0, limit)) {
    const text = full.endsWith('\r') ? full.slice(0, -1) : full;
    const first = text.charAt(0);
    if (first === '@' && text.startsWith('@@')) {
      const m = HUNK.exec(text);
      if (m) {
        oldN = Number(m[1]);
        newN = Number(m[2]);
      }
      lines.push({ kind: 'hunk', text, n: null });
    } else if (first === '+') {
      lines.push({ kind: 'add', text, n: newN++ });
    } else if (first === '-') {
      lines.push({ kind: 'del', text, n: oldN++ });
    } else if (first === '\\') {
      lines.push({ kind: 'meta', text, n: null });
    } else {
      oldN++;
      lines.push({ kind: 'ctx', text, n: newN++ });
    }
  }
  return { lines, count: raw.length };
}

export function fileView(file: PullRequestFile): DiffFileView {
  const parsed = file.patch === null ? { lines: [], count: 0 } : parsePatch(file.patch);
  return {
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    hasPatch: file.patch !== null,
    lines: parsed.lines,
    lineCount: parsed.count,
    cut: parsed.count - parsed.lines.length,
    folded: file.patch === null || parsed.count > FOLD_LINES,
  };
}

/**
 * The files to show: the first MAX_FILES the host listed. `changedFiles` (the pull request's own
 * count) may be larger than the host's list (GitHub lists at most 3000): those are counted too.
 */
export function diffView(files: PullRequestFile[], changedFiles: number | null = null): DiffView {
  const shown = files.slice(0, MAX_FILES).map(fileView);
  const total = Math.max(files.length, changedFiles ?? 0);
  return { files: shown, more: total - shown.length };
}
