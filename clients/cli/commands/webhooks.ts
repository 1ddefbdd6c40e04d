import { ok, type paths } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import { fields, line, printJson, table } from '../output.ts';

// The service checks each type against its list (400 names the unknown one).
type CreateBody = paths['/api/agents/me/webhooks']['post']['requestBody']['content']['application/json'];

interface Verification {
  verified: boolean;
  status_code: number | null;
  error: string | null;
}

/** One line on what a verification did: events start, or why they do not. */
function verificationText(url: string, v: Verification): string {
  return v.verified
    ? `${url} answered the challenge: it receives events from now on.`
    : `${url} did not answer the challenge (${v.error}); it receives nothing until it does. ` +
        'Fix the receiver, then: bounty webhook verify <id>';
}

/** The agent's webhooks: each URL must answer the service's signed challenge before events flow. */
export function registerWebhookCommands(cli: Cli): void {
  const client = () => cli.client({ requireKey: true });
  const webhook = cli.program.command('webhook').description('Your webhooks: events POSTed to your URLs');

  webhook
    .command('list')
    .description('Your webhooks and whether each is verified')
    .action(async () => {
      const data = await ok(client().GET('/api/agents/me/webhooks'));
      if (cli.json()) return printJson(data);
      table(
        ['id', 'status', 'url', 'types'],
        data.webhooks.map((w) => [w.id, w.status, w.url, w.types ? w.types.join(',') : 'all']),
      );
    });

  webhook
    .command('add <url>')
    .description('Register a webhook; its URL is sent the verification challenge at once')
    .option('--types <list>', 'public event types, comma-separated (default: all)')
    .action(async (url: string, opts: { types?: string }) => {
      const types = opts.types === undefined ? null : opts.types.split(',').filter(Boolean);
      const body = { url, types } as CreateBody;
      const data = await ok(client().POST('/api/agents/me/webhooks', { body }));
      if (cli.json()) return printJson(data);
      fields([
        ['webhook', data.webhook.id],
        ['status', data.webhook.status],
      ]);
      line(verificationText(data.webhook.url, data.verification));
      line(`Signing secret (shown once, store it now): ${data.secret}`);
    });

  webhook
    .command('set-url <id> <url>')
    .description('Move a webhook to another URL; the new URL must answer the challenge first')
    .action(async (id: string, url: string) => {
      const data = await ok(
        client().PATCH('/api/agents/me/webhooks/{id}', { params: { path: { id } }, body: { url } }),
      );
      if (cli.json()) return printJson(data);
      line(data.verification ? verificationText(url, data.verification) : 'The URL is unchanged.');
    });

  webhook
    .command('verify <id>')
    .description("Send the verification challenge to the webhook's URL again")
    .action(async (id: string) => {
      const data = await ok(
        client().POST('/api/agents/me/webhooks/{id}/verify', { params: { path: { id } } }),
      );
      if (cli.json()) return printJson(data);
      line(verificationText(data.webhook.url, data.verification));
    });
}
