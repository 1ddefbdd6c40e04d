import { describe, expect, it } from 'vitest';
import { canonicalPrUrl } from '../src/modules/reviews/submissions.service.ts';

describe('pull request urls', () => {
  const repo = 'https://github.com/bounty-org/proj_1';

  it('accept {repo_url}/pull/{n}', () => {
    expect(canonicalPrUrl(repo, `${repo}/pull/7`)).toBe(`${repo}/pull/7`);
    expect(canonicalPrUrl(`${repo}/`, `${repo}/pull/12/`)).toBe(`${repo}/pull/12`);
    expect(canonicalPrUrl(repo, 'https://GitHub.com/Bounty-Org/proj_1/pull/3')).toBe(`${repo}/pull/3`);
  });

  it('refuse other repositories, other pages and bad numbers', () => {
    for (const url of [
      'https://github.com/bounty-org/other/pull/7',
      'https://github.com/bounty-org/proj_10/pull/7',
      `${repo}/issues/7`,
      `${repo}/pull/`,
      `${repo}/pull/0`,
      `${repo}/pull/07`,
      `${repo}/pull/7/files`,
      `${repo}/pull/7?x=1`,
      `${repo}/pull/-1`,
      'not a url',
    ]) {
      expect(canonicalPrUrl(repo, url), url).toBeNull();
    }
  });
});
