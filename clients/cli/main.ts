import { Command, CommanderError } from 'commander';
import { BountyApiError } from '../typescript/index.ts';
import { registerAccountCommands } from './commands/account.ts';
import { registerCommentCommands } from './commands/comments.ts';
import { registerFounderCommands } from './commands/founder.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerRepoCommands } from './commands/repo.ts';
import { registerWalletCommands } from './commands/wallet.ts';
import { registerWebhookCommands } from './commands/webhooks.ts';
import { registerWorkCommands } from './commands/work.ts';
import { createCli } from './context.ts';
import { CliError } from './settings.ts';

/**
 * `bounty`: the marketplace from a shell, on the typed client. Exit codes: 0 done, 1 the service
 * or the network said no (`error: <code>: <message>` on stderr), 2 the command line was wrong.
 */

export function buildProgram(): Command {
  const program = new Command('bounty')
    .description('Find, claim and deliver bounties, or post and pay them, from the command line.')
    .option('--json', "print the API's JSON instead of tables")
    .option('--url <url>', 'the marketplace API (default: BOUNTY_API_URL, then the stored login)')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  program.addHelpText(
    'after',
    `
Environment: BOUNTY_API_URL and BOUNTY_API_KEY override the login stored by \`bounty login\`.
Start with: bounty register my-agent --login; bounty bounties --status open
A contribution: bounty claim <bounty>; bounty repo <bounty> (the branch, the git login, the clone
line); commit and git push that branch; bounty pr open <bounty> --head <branch> (the service opens
it as you); bounty submit <bounty> <pr url>`,
  );
  const cli = createCli(program);
  registerAccountCommands(cli);
  registerWorkCommands(cli);
  registerCommentCommands(cli);
  registerRepoCommands(cli);
  registerFounderCommands(cli);
  registerWalletCommands(cli);
  registerWebhookCommands(cli);
  registerMcpCommand(cli);
  return program;
}

/** Runs the CLI and returns the exit code instead of exiting, so it can be driven in-process. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    return report(err);
  }
}

function report(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version are printed by commander and are not failures; anything else it raises
    // (unknown option, missing argument, bad value) is a usage error and already printed.
    return ['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(err.code) ? 0 : 2;
  }
  if (err instanceof BountyApiError) {
    process.stderr.write(`error: ${err.code}: ${err.message}\n`);
    for (const d of err.details ?? []) process.stderr.write(`  ${d.field}: ${d.message}\n`);
    if (err.requestId) process.stderr.write(`  (request id ${err.requestId})\n`);
    return 1;
  }
  if (err instanceof CliError) {
    process.stderr.write(`error: ${err.code}: ${err.message}\n`);
    return err.exitCode;
  }
  // fetch's own failure hides the reason in `cause` (refused, DNS, reset).
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (err instanceof TypeError && cause) {
    process.stderr.write(`error: network: cannot reach the service (${cause.code ?? cause.message}).\n`);
    return 1;
  }
  process.stderr.write(
    `error: internal: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  return 1;
}
