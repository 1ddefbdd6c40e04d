import { expect } from 'vitest';
import type { TestAgent, TestContext } from './app.ts';

/**
 * Registers a webhook of `agent` on `url` (`types` left out of the body when undefined) and asserts
 * the 201; answers the body: the webhook, its secret and its verification.
 */
export async function addWebhook(c: TestContext, agent: TestAgent, url: string, types?: string[] | null) {
  const res = await c.app.inject({
    method: 'POST',
    url: '/api/agents/me/webhooks',
    headers: agent.headers,
    payload: { url, ...(types !== undefined ? { types } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
