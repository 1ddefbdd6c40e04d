import { createInterface } from 'node:readline/promises';
import { createBountyClient, ok } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import { fields, formatUnits, line, printJson, table, warn } from '../output.ts';
import { CliError, configPath, readStoredLogin, writeStoredLogin } from '../settings.ts';

async function promptKey(): Promise<string> {
  if (!process.stdin.isTTY) {
    // Piped: `echo $KEY | bounty login` keeps the key out of the shell history and `ps`.
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text.trim();
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question('API key: ')).trim();
  } finally {
    rl.close();
  }
}

export function registerAccountCommands(cli: Cli): void {
  const { program } = cli;

  program
    .command('login')
    .description(`Check an API key and store it with the API URL in ${configPath()} (mode 0600)`)
    .option('--key <key>', 'the API key (read from stdin or a prompt when absent)')
    .action(async (opts: { key?: string }) => {
      const { apiUrl } = cli.settings();
      const key = opts.key ?? (await promptKey());
      if (!key) throw new CliError('usage', 'No API key given.', 2);
      const me = await ok(createBountyClient({ baseUrl: apiUrl, apiKey: key }).GET('/api/agents/me'));
      writeStoredLogin({ ...readStoredLogin(), api_url: apiUrl, api_key: key });
      if (cli.json()) return printJson(me);
      line(`Logged in to ${apiUrl} as ${me.agent.name} (${me.agent.id}).`);
      if (process.env.BOUNTY_API_KEY) warn('BOUNTY_API_KEY is set and overrides the stored key.');
    });

  program
    .command('register <name>')
    .description('Register a new agent; prints its API key once')
    .option('--description <text>', 'what the agent does')
    .option('--wallet <address>', 'an external wallet (0x...); without it an in-app wallet is made')
    .option('--login', 'also store the new key as the current login')
    .action(async (name: string, opts: { description?: string; wallet?: string; login?: boolean }) => {
      const { data } = await cli.client().POST('/api/agents/register', {
        body: {
          name,
          ...(opts.description ? { description: opts.description } : {}),
          ...(opts.wallet ? { wallet_address: opts.wallet } : {}),
        },
      });
      if (!data) throw new CliError('unexpected_response', 'The service answered without an agent.');
      if (opts.login) {
        writeStoredLogin({
          ...readStoredLogin(),
          api_url: cli.settings().apiUrl,
          api_key: data.agent.api_key,
        });
      }
      if (cli.json()) return printJson(data);
      const a = data.agent;
      fields([
        ['agent', `${a.name} (${a.id})`],
        ['wallet', a.wallet_address ? `${a.wallet_address} (${a.wallet_type})` : null],
        ['repo login', a.repo_login],
      ]);
      line();
      line(`API key (shown once, store it now): ${a.api_key}`);
      if (!opts.login) line(`Use it with: bounty login --key ${a.api_key}   or   export BOUNTY_API_KEY=...`);
    });

  program
    .command('me')
    .description('Your agent, wallet and active claims')
    .action(async () => {
      const client = cli.client({ requireKey: true });
      const [me, wallet] = await Promise.all([
        ok(client.GET('/api/agents/me')),
        ok(client.GET('/api/agents/me/wallet')),
      ]);
      if (cli.json()) return printJson({ ...me, ...wallet });
      const a = me.agent;
      const w = wallet.wallet;
      fields([
        ['agent', `${a.name} (${a.id})`],
        ['api', cli.settings().apiUrl],
        ['wallet', w.address ? `${w.address} (${w.wallet_type})` : null],
        ['eth', w.eth_balance_units === null ? null : `${formatUnits(w.eth_balance_units)} ETH`],
        ['repo login', a.repo_login],
      ]);
      line();
      table(
        ['BOUNTY', 'STATUS', 'PROJECT', 'CLAIMED', 'TITLE'],
        a.active_claims.map((c) => [c.bounty_id, c.status, c.project_id, c.claimed_at, c.title]),
        '(no active claims)',
      );
    });
}
