import { spawn } from 'node:child_process';
import { childEnv } from './child-env.ts';
import { type DiffFile, parseDiffFiles } from './diff-files.ts';
import { type GitRun, remembered } from './git-answers.ts';

/** git's merge of head into base without a work tree: exit 0 and the tree, or 1 on a conflict. */
const mergeTreeArgs = (base: string, head: string) => [
  'merge-tree',
  '--write-tree',
  '--no-messages',
  base,
  head,
];

/** Who the local host commits as (initial README and merge commits); no global git config needed. */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Local repository host',
  GIT_AUTHOR_EMAIL: 'noreply@localhost',
  GIT_COMMITTER_NAME: 'Local repository host',
  GIT_COMMITTER_EMAIL: 'noreply@localhost',
};

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (exit ${code}): ${stderr.trim().slice(0, 500)}`);
    this.name = 'GitError';
  }
}

/**
 * Runs git with `home` as its HOME and nothing of the service's environment; exit codes listed in
 * `allow` are answers (e.g. "not found"), any other is an error.
 */
export function runGit(
  args: string[],
  opts: { home: string; gitDir?: string; input?: string; allow?: number[] },
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const env = childEnv(opts.home, { ...IDENTITY, ...(opts.gitDir ? { GIT_DIR: opts.gitDir } : {}) });
    const stdin = opts.input === undefined ? 'ignore' : 'pipe';
    const child = spawn('git', args, { env, stdio: [stdin, 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (c: Buffer) => out.push(c));
    child.stderr?.on('data', (c: Buffer) => {
      err = (err + c.toString('utf8')).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0 || (code !== null && opts.allow?.includes(code))) resolve({ stdout, code });
      else reject(new GitError(args, code, err));
    });
    if (child.stdin) {
      child.stdin.on('error', () => {}); // git may exit without reading; its exit code tells
      child.stdin.end(opts.input);
    }
  });
}

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

export interface DiffStats {
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

/** A commit as the `status` webhook describes it. */
export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  message: string;
}

/** One line of a pull request's commit list: its id, author name and message's first line. */
export interface CommitLine {
  sha: string;
  author: string;
  subject: string;
}

/** A full commit id, SHA-1 or SHA-256, as the REST API takes it in a path. */
export const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Git operations on one bare repository, as the REST API needs them. */
export class BareRepo {
  /** `home`: the host's own directory, HOME of every git it runs. */
  constructor(
    readonly gitDir: string,
    private readonly home: string,
  ) {}

  private git(args: string[], opts: { input?: string; allow?: number[] } = {}) {
    return runGit(args, { ...opts, home: this.home, gitDir: this.gitDir });
  }

  /** `git(args)` whose answer depends only on the full commit ids `shas`: asked once (see `answers`). */
  private gitOf(shas: string[], args: string[], opts: { allow?: number[] } = {}) {
    if (!shas.every((sha) => FULL_SHA.test(sha))) return this.git(args, opts);
    return remembered(`${this.gitDir}\0${args.join('\0')}`, () => this.git(args, opts));
  }

  /**
   * A new bare repository whose `main` is one commit holding README.md (written with plumbing, no
   * work tree), open to pushes over smart HTTP.
   */
  static async create(gitDir: string, home: string, readme: string | null): Promise<BareRepo> {
    await runGit(['init', '--bare', '--quiet', '--initial-branch=main', gitDir], { home });
    const repo = new BareRepo(gitDir, home);
    await repo.git(['config', 'http.receivepack', 'true']);
    await repo.git(['config', 'core.logAllRefUpdates', 'true']);
    if (readme !== null) {
      const blob = (await repo.git(['hash-object', '-w', '--stdin'], { input: readme })).stdout.trim();
      const tree = (await repo.git(['mktree'], { input: `100644 blob ${blob}\tREADME.md\n` })).stdout.trim();
      const commit = (
        await repo.git(['commit-tree', tree, '-F', '-'], { input: 'Initial commit\n' })
      ).stdout.trim();
      await repo.git(['update-ref', 'refs/heads/main', commit, '']);
    }
    return repo;
  }

  /** Every branch and the commit it points at. */
  async branches(): Promise<Map<string, string>> {
    const { stdout } = await this.git([
      'for-each-ref',
      '--format=%(objectname) %(refname:strip=2)',
      'refs/heads/',
    ]);
    const map = new Map<string, string>();
    for (const line of lines(stdout)) {
      const space = line.indexOf(' ');
      map.set(line.slice(space + 1), line.slice(0, space));
    }
    return map;
  }

  async branchSha(branch: string): Promise<string | null> {
    const { stdout, code } = await this.git(
      ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}^{commit}`],
      { allow: [1, 128] },
    );
    return code === 0 ? stdout.trim() : null;
  }

  /** Time of the newest commit on any branch (a stand-in for GitHub's `pushed_at`). */
  async lastCommitAt(): Promise<string | null> {
    const { stdout } = await this.git([
      'for-each-ref',
      '--sort=-committerdate',
      '--count=1',
      '--format=%(committerdate:unix)',
      'refs/heads/',
    ]);
    const seconds = Number(stdout.trim());
    return stdout.trim() && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null;
  }

  /** Commits on head that base lacks, and the diff GitHub shows (base...head). */
  async diffStats(baseSha: string, headSha: string): Promise<DiffStats> {
    const shas = [baseSha, headSha];
    const count = await this.gitOf(shas, ['rev-list', '--count', `${baseSha}..${headSha}`]);
    const numstat = await this.gitOf(shas, ['diff', '--numstat', `${baseSha}...${headSha}`]);
    const stats = { commits: Number(count.stdout.trim()), additions: 0, deletions: 0, changedFiles: 0 };
    for (const line of lines(numstat.stdout)) {
      const [added, deleted] = line.split('\t');
      stats.changedFiles++;
      stats.additions += Number(added) || 0;
      stats.deletions += Number(deleted) || 0;
    }
    return stats;
  }

  /** Commits on head that base lacks, oldest first (as GitHub's page lists them), `max` at most. */
  async commits(baseSha: string, headSha: string, max: number): Promise<CommitLine[]> {
    const { stdout } = await this.gitOf(
      [baseSha, headSha],
      [
        'log',
        '--reverse',
        `--max-count=${max}`,
        '--format=%H%x00%an%x00%s%x00',
        '--end-of-options',
        `${baseSha}..${headSha}`,
      ],
    );
    const f = stdout.split('\0');
    const out: CommitLine[] = [];
    for (let i = 0; i + 2 < f.length; i += 3)
      out.push({ sha: (f[i] ?? '').trim(), author: f[i + 1] ?? '', subject: f[i + 2] ?? '' });
    return out;
  }

  /** The commit named by a full sha, or null when there is no such commit. */
  async commitSha(sha: string): Promise<string | null> {
    if (!FULL_SHA.test(sha)) return null;
    const { stdout, code } = await this.git(
      ['rev-parse', '--verify', '--quiet', '--end-of-options', `${sha}^{commit}`],
      { allow: [1, 128] },
    );
    return code === 0 ? stdout.trim() : null;
  }

  /** A commit's tree, parents, author, committer and message (an existing commit's full sha). */
  async commitInfo(sha: string): Promise<CommitInfo> {
    const format = ['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x00');
    const { stdout } = await this.gitOf([sha], ['log', '-1', `--format=${format}`, '--end-of-options', sha]);
    const [h = '', tree = '', parents = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', ...msg] =
      stdout.split('\0');
    return {
      sha: h,
      tree,
      parents: parents.split(' ').filter(Boolean),
      author: { name: an, email: ae, date: ad },
      committer: { name: cn, email: ce, date: cd },
      message: msg.join('\0').replace(/\n+$/, ''),
    };
  }

  /** Up to `max` branches whose history holds the commit, with their tips. */
  async branchesContaining(sha: string, max: number): Promise<{ name: string; sha: string }[]> {
    const { stdout } = await this.git([
      'for-each-ref',
      `--count=${max}`,
      `--contains=${sha}`,
      '--format=%(objectname) %(refname:strip=2)',
      'refs/heads/',
    ]);
    return lines(stdout).map((l) => ({ name: l.slice(l.indexOf(' ') + 1), sha: l.slice(0, l.indexOf(' ')) }));
  }

  /** The files of the diff GitHub shows for a pull request (base...head), with their patches. */
  async diffFiles(baseSha: string, headSha: string): Promise<DiffFile[]> {
    const range = `${baseSha}...${headSha}`;
    const opts = ['--find-renames', '--no-color', '--no-ext-diff', '--no-textconv'];
    const shas = [baseSha, headSha];
    const [raw, numstat, patch] = await Promise.all([
      this.gitOf(shas, ['diff', ...opts, '--raw', '-z', '--no-abbrev', range]),
      this.gitOf(shas, ['diff', ...opts, '--numstat', '-z', range]),
      this.gitOf(shas, ['diff', ...opts, range]),
    ]);
    return parseDiffFiles(raw.stdout, numstat.stdout, patch.stdout);
  }

  /** Whether head merges into base cleanly, asked once (a merge asks `mergeTree` anew for its tree). */
  async mergeable(baseSha: string, headSha: string): Promise<boolean> {
    return (await this.gitOf([baseSha, headSha], mergeTreeArgs(baseSha, headSha), { allow: [1] })).code === 0;
  }

  /** The tree of merging head into base, or null when they conflict. */
  async mergeTree(baseSha: string, headSha: string): Promise<string | null> {
    const { stdout, code } = await this.git(mergeTreeArgs(baseSha, headSha), { allow: [1] });
    return code === 0 ? (lines(stdout)[0] ?? null) : null;
  }

  async commitTree(tree: string, parents: string[], message: string): Promise<string> {
    const args = ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
    return (await this.git(args, { input: message })).stdout.trim();
  }

  /** Moves a branch only if it still points at `expected`; false when someone pushed meanwhile. */
  async moveBranch(branch: string, to: string, expected: string): Promise<boolean> {
    const { code } = await this.git(['update-ref', `refs/heads/${branch}`, to, expected], {
      allow: [1, 128],
    });
    return code === 0;
  }

  /**
   * What a compare of two commits counts (as GitHub's): their merge base (null without one), the
   * commits head has that base lacks and the reverse, and the first `max` of those on head, oldest
   * first.
   */
  async compareRange(baseSha: string, headSha: string, max: number) {
    const ids = [baseSha, headSha];
    const [base, counts, shas] = await Promise.all([
      this.gitOf(ids, ['merge-base', '--end-of-options', baseSha, headSha], { allow: [1] }),
      this.gitOf(ids, ['rev-list', '--left-right', '--count', '--end-of-options', `${baseSha}...${headSha}`]),
      this.gitOf(ids, ['rev-list', '--reverse', '--end-of-options', `${baseSha}..${headSha}`]),
    ]);
    const [behind = '0', ahead = '0'] = counts.stdout.trim().split(/\s+/);
    return {
      mergeBase: base.code === 0 ? base.stdout.trim() : null,
      aheadBy: Number(ahead),
      behindBy: Number(behind),
      shas: lines(shas.stdout).slice(0, max),
    };
  }
}
