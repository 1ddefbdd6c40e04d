import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BareRepo, runGit } from '../src/dev/local-repo-host/git.ts';

/**
 * The built-in host's git answers that depend only on full commit ids are asked of git once: with
 * git no longer runnable (PATH emptied), they still answer the same, while anything naming a
 * branch, and anything not asked before, fails.
 */
describe('local repository host: answers of git kept by commit id', () => {
  let dir: string;
  let repo: BareRepo;
  let base: string;
  let head: string;
  let other: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'git-answers-'));
    const gitDir = join(dir, 'r.git');
    repo = await BareRepo.create(gitDir, dir, 'hello\n');
    base = (await repo.branchSha('main')) as string;
    const commit = async (text: string, message: string) => {
      const git = (args: string[], input?: string) =>
        runGit(args, { home: dir, gitDir, ...(input === undefined ? {} : { input }) });
      const blob = (await git(['hash-object', '-w', '--stdin'], text)).stdout.trim();
      const tree = (await git(['mktree'], `100644 blob ${blob}\tREADME.md\n`)).stdout.trim();
      return (await git(['commit-tree', tree, '-p', base, '-F', '-'], `${message}\n`)).stdout.trim();
    };
    head = await commit('hello\nworld\n', 'Add a line');
    other = await commit('bye\n', 'Replace the line');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const ask = async () => ({
    stats: await repo.diffStats(base, head),
    commits: await repo.commits(base, head, 10),
    info: await repo.commitInfo(head),
    files: await repo.diffFiles(base, head),
    range: await repo.compareRange(base, head, 10),
    mergeable: await repo.mergeable(head, other),
  });

  it('answers again without git, and asks git for branches and for what it was never asked', async () => {
    const first = await ask();
    expect(first.stats).toEqual({ commits: 1, additions: 1, deletions: 0, changedFiles: 1 });
    expect(first.info.message).toBe('Add a line');
    expect(first.files.map((f) => f.filename)).toEqual(['README.md']);
    expect(first.range).toMatchObject({ mergeBase: base, aheadBy: 1, behindBy: 0, shas: [head] });
    expect(first.mergeable).toBe(false);

    const path = process.env.PATH;
    process.env.PATH = join(dir, 'no-git-here');
    try {
      expect(await ask()).toEqual(first);
      await expect(repo.branchSha('main')).rejects.toThrow();
      await expect(repo.diffStats('main', head)).rejects.toThrow();
      await expect(repo.commitInfo(other)).rejects.toThrow();
    } finally {
      process.env.PATH = path;
    }
    // A failed run is not kept: asked again with git back, it answers.
    expect((await repo.commitInfo(other)).message).toBe('Replace the line');
  });
});
