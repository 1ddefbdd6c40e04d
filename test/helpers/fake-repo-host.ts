import type { HostedRepository, PullRequestInfo, RepoHost } from '../../src/infra/repo-host/repo-host.ts';
import { verifyWebhookSignature } from '../../src/infra/repo-host/webhook-signature.ts';

/**
 * A stand-in repository host for tests of HTTP rules (tests only). Every pull request of a
 * repository counts as open unless a test says otherwise with `setPullRequest`/`removePullRequest`.
 */
export class FakeRepoHost implements RepoHost {
  readonly info = { kind: 'local' as const, apiUrl: 'http://127.0.0.1:9/api/v3', org: 'bounty-org' };
  readonly webhookSecret = 'test-webhook-secret';
  readonly created: string[] = [];
  private readonly prs = new Map<string, PullRequestInfo | null>();
  /** When set, the next ensureRepository throws it (then clears). */
  failNextRepository: Error | null = null;

  async ensureRepository(name: string): Promise<HostedRepository> {
    if (this.failNextRepository) {
      const err = this.failNextRepository;
      this.failNextRepository = null;
      throw err;
    }
    const created = !this.created.includes(name);
    if (created) this.created.push(name);
    const htmlUrl = `http://127.0.0.1:9/${this.info.org}/${name}`;
    return { fullName: `${this.info.org}/${name}`, htmlUrl, cloneUrl: `${htmlUrl}.git`, created };
  }

  setPullRequest(url: string, pr: Partial<PullRequestInfo>): void {
    const number = Number(url.split('/').pop());
    this.prs.set(url, {
      number,
      state: 'open',
      merged: false,
      htmlUrl: url,
      headRef: 'work',
      title: 'Work',
      authorLogin: 'author',
      mergedByLogin: null,
      ...pr,
    });
  }

  removePullRequest(url: string): void {
    this.prs.set(url, null);
  }

  async getPullRequest(owner: string, repo: string, number: number): Promise<PullRequestInfo | null> {
    const key = [...this.prs.keys()].find((u) => u.endsWith(`/${owner}/${repo}/pull/${number}`));
    if (key !== undefined) return this.prs.get(key) ?? null;
    return {
      number,
      state: 'open',
      merged: false,
      htmlUrl: '',
      headRef: 'work',
      title: 'Work',
      authorLogin: 'author',
      mergedByLogin: null,
    };
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): boolean {
    return verifyWebhookSignature(this.webhookSecret, rawBody, signatureHeader);
  }
}
