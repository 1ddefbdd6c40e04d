import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createBounty, type TestContext } from './helpers/app.ts';
import { activeProject } from './helpers/bounty-flows.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { FakeRepoHost } from './helpers/fake-repo-host.ts';

/**
 * The typed client as a package, used the way another project would: `npm pack` it, install the
 * tarball into a scratch project outside this repository, compile a consumer under `strict` with
 * `lib: ["es2022", "dom"]` and no @types/node, and run the compiled JavaScript through the
 * contributor's flow (register, follow events, claim, submit) against an app listening on a port.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const sources = join(root, 'clients/typescript');
const tsc = join(root, 'node_modules/.bin/tsc');

// npm's own variables (set when the tests run under `npm test`) would point a child npm at this
// repository; the scratch project must be a project of its own. Where the cache and registry are
// is kept: the install reads openapi-fetch from the cache.
const KEPT = /^npm_config_(cache|registry|userconfig)$/i;
const npmEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || KEPT.test(k)),
);
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env: npmEnv, timeout: 120_000 });

/** The consumer: nothing of this repository, only the installed package and the DOM lib's types. */
const CONSUMER = `import { BountyApiError, createBountyClient, ok } from '@bounty-marketplace/client';

export interface FlowResult {
  agent: { id: string; name: string };
  bountyId: string;
  claimedBy: string | null;
  event: { type: string; bounty_id: string | null };
  submission: { id: string; status: string; pr_url: string };
  again: { status: number; code: string };
}

export async function contributorFlow(baseUrl: string, projectId: string, name: string): Promise<FlowResult> {
  const anonymous = createBountyClient({ baseUrl });
  const { agent } = await ok(anonymous.POST('/api/agents/register', { body: { name } }));
  const api = createBountyClient({ baseUrl, apiKey: agent.api_key, userAgent: 'client-package-test' });

  const { bounties } = await ok(
    api.GET('/api/bounties', { params: { query: { status: 'open', project_id: projectId } } }),
  );
  const bounty = bounties[0];
  if (!bounty) throw new Error('no open bounty');

  // Subscribe, wait until the stream is open, then act: the claim's event must arrive.
  const stop = new AbortController();
  let opened: () => void = () => {};
  const open = new Promise<void>((resolve) => (opened = resolve));
  const events = api.followEvents({ types: ['bounty.claimed'], projectId, signal: stop.signal, onOpen: () => opened() });
  const first = events.next();
  await open;
  const claimed = await ok(api.POST('/api/bounties/{id}/claim', { params: { path: { id: bounty.id } } }));
  const next = await first;
  stop.abort();
  await events.return(undefined);
  if (next.done) throw new Error('the event stream ended');

  let again = { status: 0, code: '' };
  try {
    await api.POST('/api/bounties/{id}/claim', { params: { path: { id: bounty.id } } });
  } catch (err) {
    if (!(err instanceof BountyApiError)) throw err;
    again = { status: err.status, code: err.code };
  }

  const { project } = await ok(api.GET('/api/projects/{id}', { params: { path: { id: projectId } } }));
  if (!project.repo_url) throw new Error('the project has no repository');
  const { submission } = await ok(
    api.POST('/api/bounties/{id}/submit', {
      params: { path: { id: bounty.id } },
      body: { pr_url: project.repo_url + '/pull/1' },
    }),
  );
  return {
    agent: { id: agent.id, name: agent.name },
    bountyId: bounty.id,
    claimedBy: claimed.bounty.claimed_by,
    event: { type: next.value.type, bounty_id: next.value.bounty_id },
    submission: { id: submission.id, status: submission.status, pr_url: submission.pr_url },
    again,
  };
}
`;

const RUNNER = `import { contributorFlow } from './dist/flow.js';
const [baseUrl, projectId, name] = process.argv.slice(2);
process.stdout.write(JSON.stringify(await contributorFlow(baseUrl, projectId, name)));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'],
    types: [],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

let ctx: TestContext;
let base: string;
let tmp: string;
const chain = new FakeChain();
const host = new FakeRepoHost();

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'client-package-'));
  ctx = await buildTestApp({ chain, repoHost: host });
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await ctx?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/**
 * Packs a copy of clients/typescript (its prepack builds dist/ there), so the sources here never
 * hold build output, whoever else is running. The copy finds tsc and openapi-fetch in this
 * repository's node_modules, as the package directory itself would.
 */
async function pack(): Promise<string> {
  const copy = join(tmp, 'client-src');
  cpSync(sources, copy, {
    recursive: true,
    filter: (src) => !/^(dist|node_modules)(\/|$)/.test(relative(sources, src)),
  });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const out = join(tmp, 'tarball');
  mkdirSync(out);
  await npm(['pack', '--silent', '--pack-destination', out], copy);
  const [tarball, ...more] = readdirSync(out);
  expect(more).toEqual([]);
  return join(out, tarball as string);
}

describe('the client package', () => {
  it('installs from its tarball outside the repository, compiles strict for the DOM and runs the flow', async () => {
    const tarball = await pack();
    expect(tarball).toMatch(/bounty-marketplace-client-\d+\.\d+\.\d+\.tgz$/);

    const scratch = join(tmp, 'consumer');
    mkdirSync(join(scratch, 'src'), { recursive: true });
    expect(relative(root, scratch).startsWith('..')).toBe(true);
    writeFileSync(
      join(scratch, 'package.json'),
      `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    const flags = ['--no-audit', '--no-fund', '--no-save'];
    try {
      await npm(['install', '--prefer-offline', ...flags, tarball], scratch);
    } catch {
      // No network: openapi-fetch is in npm's cache since this repository installed it.
      await npm(['install', '--offline', ...flags, tarball], scratch);
    }
    const installed = join(scratch, 'node_modules/@bounty-marketplace/client');
    expect(existsSync(join(installed, 'dist/index.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist/index.d.ts'))).toBe(true);
    // Built output only: no TypeScript sources, no build files.
    const shipped = readdirSync(join(installed, 'dist'));
    expect(shipped.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    expect(existsSync(join(scratch, 'node_modules/openapi-fetch'))).toBe(true);
    expect(existsSync(join(scratch, 'node_modules/@types'))).toBe(false);

    writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(join(scratch, 'src/flow.ts'), CONSUMER);
    writeFileSync(join(scratch, 'run.mjs'), RUNNER);
    const compiled = await run(process.execPath, [tsc, '-p', scratch], { cwd: scratch }).catch(
      (err: { stdout?: string; message: string }) => {
        throw new Error(`the consumer does not compile:\n${err.stdout ?? err.message}`);
      },
    );
    expect(compiled.stdout).toBe('');

    // An open bounty the consumer finds and claims. The fake host says pull request 1 is the
    // claimant's, as if they had opened it there.
    const p = await activeProject(ctx, chain);
    const bounty = await createBounty(ctx.app, p.founder, p.project.id, { title: 'Package the client' });
    const getPullRequest = host.getPullRequest.bind(host);
    host.getPullRequest = async (owner, repo, number) => {
      const pr = await getPullRequest(owner, repo, number);
      const claimant = (await ctx.app.inject({ url: `/api/bounties/${bounty.id}` })).json().bounty.claimed_by;
      const login = claimant
        ? (await ctx.app.inject({ url: `/api/agents/${claimant}` })).json().agent.repo_login
        : null;
      return pr && login ? { ...pr, authorLogin: login } : pr;
    };

    const name = `pkg-consumer-${process.pid}`;
    const { stdout } = await run(process.execPath, ['run.mjs', base, p.project.id, name], {
      cwd: scratch,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 60_000,
    });
    const result = JSON.parse(stdout);
    expect(result.agent.name).toBe(name);
    expect(result).toMatchObject({
      bountyId: bounty.id,
      claimedBy: result.agent.id,
      event: { type: 'bounty.claimed', bounty_id: bounty.id },
      submission: { status: 'pending', pr_url: `${p.repoUrl}/pull/1` },
      again: { status: 409, code: 'invalid_state' },
    });
    const after = (await ctx.app.inject({ url: `/api/bounties/${bounty.id}` })).json().bounty;
    expect(after.status).toBe('in_review');
    expect(after.submissions[0]).toMatchObject({ id: result.submission.id, agent_id: result.agent.id });
  }, 180_000);
});
