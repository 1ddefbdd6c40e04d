import { randomUUID } from 'node:crypto';
import { signWebhook } from '../../src/infra/repo-host/webhook-signature.ts';
import type { TestApp } from './app.ts';

/** A GitHub `pull_request` "closed, merged" delivery body for `{repo html_url}/pull/{n}`. */
export function mergedPayload(prUrl: string) {
  const number = Number(prUrl.split('/').pop());
  const repoHtml = prUrl.replace(/\/pull\/\d+$/, '');
  return {
    action: 'closed',
    number,
    pull_request: {
      number,
      html_url: prUrl,
      state: 'closed',
      merged: true,
      title: 'Work',
      head: { ref: 'work' },
    },
    repository: { full_name: new URL(repoHtml).pathname.slice(1), html_url: repoHtml },
  };
}

/**
 * Delivers a signed merge webhook for the pull request, as the repository host does. A merge by
 * the founder answers `{status: 'owed', bounty_id, submission_id}` at once, without paying: the
 * owed-payouts job pays it (`app.services.owedPayouts.run()` runs a pass).
 */
export function deliverMerge(app: TestApp, secret: string, prUrl: string) {
  const raw = JSON.stringify(mergedPayload(prUrl));
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/github',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'pull_request',
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': signWebhook(secret, raw),
    },
    payload: raw,
  });
}
