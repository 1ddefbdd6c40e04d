import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBounty, registerAgent, type TestAgent } from './helpers/app.ts';
import { cliEnv, runBounty } from './helpers/cli.ts';
import { contributorGitEnv } from './helpers/git.ts';
import { hostPullRequest, type RepoScene, repoLoginOf, repoScene } from './helpers/repo-scene.ts';
import { claim } from './helpers/review-flow.ts';

/**
 * The CLI (`bounty repo`, `bounty pr open`) and the MCP tools (`repo_credentials`,
 * `open_pull_request`) on the built-in repository host: both go through the service's one answer
 * about a bounty's repository and its pull request route, never to the host's API themselves; the
 * pull requests they open are on the host with the claimant as author.
 */

const run = promisify(execFile);
let s: RepoScene;
let base: string;
const mcpClients: Client[] = [];

beforeAll(async () => {
  s = await repoScene('pr-edges');
  base = await s.ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await Promise.all(mcpClients.map((c) => c.close().catch(() => {})));
  await s?.close();
});

/** A new agent holding the claim of a new bounty of the scene's project. */
async function claimant(title: string) {
  const agent = await registerAgent(s.ctx.app);
  const bounty = await createBounty(s.ctx.app, s.founder, s.project.id, { title });
  await claim(s.ctx.app, agent, bounty.id);
  return { agent, bounty };
}

async function repositoryOf(agent: TestAgent, bountyId: string) {
  const res = await s.ctx.app.inject({
    method: 'GET',
    url: `/api/bounties/${bountyId}/repository`,
    headers: agent.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().repository;
}

/** Commits a file in `work` and runs `push` there (a shell line), as the person would. */
async function commitAndPush(work: string, env: NodeJS.ProcessEnv, push: string) {
  const sh = (line: string) => run('sh', ['-c', line], { cwd: work, env });
  writeFileSync(join(work, 'greeting.txt'), 'hello\n');
  await sh('git add -A && git commit --quiet -m "Add a greeting"');
  await sh(push);
}

describe('bounty repo and bounty pr open', () => {
  it("print the service's instructions, push through the CLI's helper and open the pull request as the claimant", async () => {
    const { agent, bounty } = await claimant('Greet in the CLI');
    const home = join(s.tmp, 'cli-home');
    mkdirSync(home, { recursive: true });
    const env = cliEnv(base, home, agent.apiKey);
    const bounty_ = (args: string[]) => runBounty(args, env);
    const expected = await repositoryOf(agent, bounty.id);

    const json = await bounty_(['repo', bounty.id, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const repo = JSON.parse(json.stdout);
    expect(repo).toMatchObject({ bounty_id: bounty.id, repository: expected });
    expect(repo.credential_helper).toMatch(/bounty\.mjs'? --url \S+ git-credential$/);
    const shown = await bounty_(['repo', bounty.id]);
    expect(shown.stdout).toContain(expected.push);
    expect(shown.stdout).toContain(repo.clone_command);
    expect(shown.stdout).toContain(`git push origin ${expected.branch}`);
    expect(shown.stdout).toContain(`bounty pr open ${bounty.id} --head ${expected.branch}`);

    // Clone with the printed line (the helper lands in the clone's config), then a plain push.
    const gitEnv = { ...contributorGitEnv(s.tmp, 'Cli Dev'), BOUNTY_API_KEY: agent.apiKey };
    const dir = join(s.tmp, 'cli');
    mkdirSync(dir);
    await run('sh', ['-c', `${repo.clone_command} && ${expected.commands.branch}`], {
      cwd: dir,
      env: gitEnv,
    });
    const work = join(dir, expected.repo_url.split('/').pop());
    await commitAndPush(work, gitEnv, `git push --quiet origin ${expected.branch}`);

    const opened = await bounty_(['pr', 'open', bounty.id, '--head', expected.branch]);
    expect(opened.code, opened.stderr).toBe(0);
    const [, number, url] = /^Opened pull request #(\d+): (\S+)$/m.exec(opened.stdout) ?? [];
    expect(url).toBe(`${s.repoUrl}/pull/${number}`);
    expect(opened.stdout).toContain(`Next: bounty submit ${bounty.id} ${url}`);
    expect(await hostPullRequest(s, Number(number))).toMatchObject({
      title: 'Greet in the CLI',
      user: { login: await repoLoginOf(s.ctx, agent) },
      head: { ref: expected.branch },
      base: { ref: 'main' },
    });

    // The host's refusal (one is already open) comes back as the API's error.
    const twice = await bounty_(['pr', 'open', bounty.id, '--head', expected.branch]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^error: validation_error: The repository host refused the pull request/);
    // Only the claimant: anyone else is the API's 403.
    const stranger = await registerAgent(s.ctx.app);
    const theirs = await runBounty(
      ['pr', 'open', bounty.id, '--head', expected.branch, '--title', 'Mine'],
      cliEnv(base, home, stranger.apiKey),
    );
    expect(theirs).toMatchObject({ code: 1 });
    expect(theirs.stderr).toMatch(/^error: forbidden: /);
  });
});

describe('MCP repo_credentials and open_pull_request', () => {
  async function connect(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const headers = { authorization: `Bearer ${apiKey}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
    );
    mcpClients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  it("answer the route's instructions and open the pull request as the claimant", async () => {
    const { agent, bounty } = await claimant('Greet over MCP');
    const mcp = await connect(agent.apiKey);
    const creds = await call(mcp, 'repo_credentials', { bounty_id: bounty.id });
    expect(creds.isError ?? false).toBe(false);
    const expected = await repositoryOf(agent, bounty.id);
    expect(creds.structuredContent).toEqual({ repository: expected });

    // The answer's own lines: the push takes the key from BOUNTY_API_KEY.
    const gitEnv = { ...contributorGitEnv(s.tmp, 'Mcp Dev'), BOUNTY_API_KEY: agent.apiKey };
    const dir = join(s.tmp, 'mcp');
    mkdirSync(dir);
    await run('sh', ['-c', `${expected.commands.clone} && ${expected.commands.branch}`], {
      cwd: dir,
      env: gitEnv,
    });
    await commitAndPush(join(dir, expected.repo_url.split('/').pop()), gitEnv, expected.commands.push);

    const args = { bounty_id: bounty.id, head: expected.branch, title: 'Greet', body: 'For it.' };
    const res = await call(mcp, 'open_pull_request', args);
    expect(res.isError ?? false, JSON.stringify(res.structuredContent)).toBe(false);
    const out = res.structuredContent as { html_url: string; pull_request: { number: number } };
    expect(out.pull_request).toMatchObject({ author_login: await repoLoginOf(s.ctx, agent), state: 'open' });
    expect(await hostPullRequest(s, out.pull_request.number)).toMatchObject({
      html_url: out.html_url,
      title: 'Greet',
      body: 'For it.',
      user: { login: await repoLoginOf(s.ctx, agent) },
    });

    // Anyone but the claimant: the route's 403, as a tool error; the founder reads the instructions.
    const stranger = await connect((await registerAgent(s.ctx.app)).apiKey);
    for (const [tool, a] of [
      ['open_pull_request', args],
      ['repo_credentials', { bounty_id: bounty.id }],
    ] as const)
      expect((await call(stranger, tool, a)).structuredContent).toMatchObject({ code: 'forbidden' });
    const founder = await connect(s.founder.apiKey);
    expect(
      (await call(founder, 'repo_credentials', { bounty_id: bounty.id })).structuredContent,
    ).toMatchObject({
      repository: { branch: expected.branch },
    });
  });
});
