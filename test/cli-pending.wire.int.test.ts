import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  createProject,
  markProjectActive,
  randomAddress,
  registerAgent,
  type TestContext,
} from './helpers/app.ts';
import { cliEnv, configDirs, runBounty } from './helpers/cli.ts';
import { FakeChain } from './helpers/fake-chain.ts';
import { journaledWallet } from './helpers/journaled-wallet.ts';
import { newVault } from './helpers/wallets.ts';

/**
 * The wallet actions through the CLI whose transaction is still pending when the service answers
 * (202), on a fake chain whose wallet records through the transaction engine: pending lines, `bounty
 * tx`, `--wait` and `--json`.
 */

const freshConfig = configDirs();

describe('bounty sell, withdraw, buy, allowance and tx: a transaction still pending', () => {
  const TOKEN = 10n ** 18n;
  let app: TestContext;
  let appBase: string;
  let wallet: ReturnType<typeof journaledWallet>;
  let projectId: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const chain = new FakeChain();
    app = await buildTestApp({ chain, vault: newVault() });
    wallet = journaledWallet(app, chain);
    appBase = await app.app.listen({ port: 0, host: '127.0.0.1' });
    const founder = await registerAgent(app.app);
    projectId = (await createProject(app.app, founder)).id;
    const { tokenAddress } = await markProjectActive(app, projectId);
    // An agent with an in-app wallet holding 100 of the project's tokens.
    const dev = await registerAgent(app.app, { wallet_address: null });
    chain.setFundsUnits(tokenAddress, dev.walletAddress as string, 100n * TOKEN, 0n);
    env = cliEnv(appBase, freshConfig(), dev.apiKey);
  });
  afterAll(() => app?.close());

  const PENDING = /^pending: transaction (wtx_[0-9a-f]{32}) \(tx (0x[0-9a-f]{64})\)$/m;

  it('says pending with the transaction and its hash; `bounty tx` follows it to confirmed', async () => {
    wallet.state.outcome = 'pending';
    const sold = await runBounty(['sell', projectId, '10'], env);
    expect(sold.code, sold.stderr).toBe(0);
    const [, id, hash] = PENDING.exec(sold.stdout) ?? [];
    expect(id, sold.stdout).toBeDefined();
    expect(sold.stdout).toContain(`bounty tx ${id}`);
    expect(sold.stdout).not.toContain('received');

    const one = await runBounty(['tx', id as string], env);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(new RegExp(`transaction:\\s+${id}`));
    expect(one.stdout).toMatch(/kind:\s+sell/);
    expect(one.stdout).toMatch(/status:\s+pending \(sent, may still mine\)/);
    expect(one.stdout).toMatch(new RegExp(`tx:\\s+${hash}`));
    const list = await runBounty(['tx'], env);
    expect(list.stdout).toMatch(/ID\s+KIND\s+STATUS\s+TX\s+PROJECT\s+CREATED/);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+sell\\s+pending\\s+${hash}\\s+${projectId}`));

    await wallet.confirm(id as string);
    const settled = await runBounty(['tx', id as string, '--json'], env);
    expect(JSON.parse(settled.stdout).transaction).toMatchObject({
      id,
      status: 'confirmed',
      tx_hash: hash,
      result: { tx_hash: hash, eth_units: ((10n * TOKEN) / 1000n).toString(), sponsored: false },
    });
    const shown = (await runBounty(['tx', id as string], env)).stdout;
    expect(shown).toMatch(/status:\s+confirmed/);
    expect(shown).toMatch(/eth:\s+0\.01$/m);
    const json = JSON.parse((await runBounty(['tx', '--json', '--limit', '1'], env)).stdout);
    expect(json.transactions.map((t: { id: string }) => t.id)).toEqual([id]);
    // Someone else's id, or none at all, is the API's 404.
    const missing = await runBounty(['tx', `wtx_${'0'.repeat(32)}`], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: not_found: /);
  });

  it('--wait follows a pending withdraw until it is confirmed, then prints what a 200 prints', async () => {
    wallet.state.outcome = 'pending';
    const to = randomAddress();
    const read = wallet.nextRead();
    const running = runBounty(['withdraw', to, '0.5', '--wait'], env);
    // Mined only once the service read it for its 202: the answer was pending, whatever the timing.
    await wallet.confirm(await read);
    const done = await running;
    expect(done.code, done.stderr).toBe(0);
    const [, , hash] = PENDING.exec(done.stdout) ?? [];
    expect(hash, done.stdout).toBeDefined();
    expect(done.stdout).toMatch(new RegExp(`sent:\\s+0\\.5 ETH to ${to}`));
    expect(done.stdout).toMatch(new RegExp(`tx:\\s+${hash}`));
  });

  it('--wait --json ends with the failure (exit 1) when the pending buy reverts; stdout stays JSON', async () => {
    wallet.state.outcome = 'pending';
    const read = wallet.nextRead();
    const running = runBounty(['buy', projectId, '--eth', '1', '--wait', '--json'], env);
    const id = await read;
    await wallet.revert(id);
    const failed = await running;
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(new RegExp(`^pending: transaction ${id} \\(tx 0x[0-9a-f]{64}\\)$`, 'm'));
    expect(failed.stderr).toMatch(
      new RegExp(`^error: upstream_error: Transaction ${id} failed: The transaction reverted on chain`, 'm'),
    );
  });

  it('--json without --wait prints the 202 answer; an action that mines in time prints as before', async () => {
    wallet.state.outcome = 'pending';
    const allowance = await runBounty(['allowance', projectId, '500', '--json'], env);
    expect(allowance.code, allowance.stderr).toBe(0);
    const answer = JSON.parse(allowance.stdout);
    expect(answer.transaction).toMatchObject({ kind: 'allowance', status: 'pending', project_id: projectId });
    expect(answer.tx_hash).toBe(answer.transaction.tx_hash);

    wallet.state.outcome = 'mine';
    const sold = await runBounty(['sell', projectId, '1'], env);
    expect(sold.code, sold.stderr).toBe(0);
    expect(sold.stdout).not.toMatch(PENDING);
    expect(sold.stdout).toMatch(/received:\s+0\.001 ETH/);
  });
});
