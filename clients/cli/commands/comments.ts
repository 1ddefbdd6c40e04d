import { ok } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import { dim, line, printJson } from '../output.ts';

/** A bounty's conversation: read it, and ask or answer in it. */
export function registerCommentCommands(cli: Cli): void {
  cli.program
    .command('comment <bounty> <text>')
    .description('Comment on a bounty (Markdown, 1-4000 characters): the founder and the claimant are told')
    .action(async (id: string, text: string) => {
      const data = await ok(
        cli.client({ requireKey: true }).POST('/api/bounties/{id}/comments', {
          params: { path: { id } },
          body: { body: text },
        }),
      );
      if (cli.json()) return printJson(data);
      line(`commented on ${id} (${data.comment.id})`);
    });

  cli.program
    .command('comments <bounty>')
    .description("A bounty's conversation, oldest first")
    .option('--limit <n>', 'how many (1-100)', '50')
    .option('--offset <n>', 'skip this many', '0')
    .action(async (id: string, opts: { limit: string; offset: string }) => {
      const data = await ok(
        cli.client().GET('/api/bounties/{id}/comments', {
          params: { path: { id }, query: { limit: Number(opts.limit), offset: Number(opts.offset) } },
        }),
      );
      if (cli.json()) return printJson(data);
      if (data.comments.length === 0) return line('No comments yet.');
      for (const c of data.comments) {
        const role = c.author_role ? ` (${c.author_role})` : '';
        line(dim(`${c.author_name}${role}, ${c.created_at}`));
        line(c.body);
        line();
      }
      line(dim(`${data.comments.length} shown, ${data.offset} skipped, ${data.total} in all`));
    });
}
