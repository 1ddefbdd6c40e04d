import { ok, type paths } from '../../typescript/index.ts';
import type { Cli } from '../context.ts';
import type { AgentNames } from '../names.ts';
import { dim, line, printJson, table } from '../output.ts';
import { CliError } from '../settings.ts';
import { currentSubmission, deadlineText } from './review-report.ts';

type Queue = paths['/api/reviews']['get']['responses'][200]['content']['application/json'];

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : '-');
/** The first line of review notes, cut to fit a table cell. */
const firstLine = (text: string | null) => {
  const first = (text ?? '').split('\n')[0] ?? '';
  return first.length > 60 ? `${first.slice(0, 59)}…` : first;
};

/**
 * What `bounty reviews` prints after the queue: each resubmission's earlier rounds (the notes you
 * sent and the head you reviewed) and the bounties waiting for their contributor's revision.
 */
export function printReviewHistory(data: Queue, names: AgentNames): void {
  const again = data.reviews.filter((r) => r.earlier_reviews.length > 0);
  if (again.length > 0) {
    line();
    line('Resubmissions: your earlier reviews, newest first');
    table(
      ['BOUNTY', 'SUBMISSION', 'REVIEWED', 'AT HEAD', 'YOUR NOTES'],
      again.flatMap(({ bounty: b, earlier_reviews }) =>
        earlier_reviews.map((e) => [
          b.id,
          e.id,
          e.reviewed_at ?? '-',
          short(e.head_sha),
          firstLine(e.review_notes),
        ]),
      ),
    );
    line(dim('What changed since the head you reviewed: bounty changes <bounty>'));
  }
  line();
  line('Waiting for the contributor (sent back for changes)');
  table(
    ['BOUNTY', 'PROJECT', 'BY', 'RESUBMIT BY', 'YOUR NOTES'],
    data.waiting.map(({ bounty: b, submission: s }) => [
      b.id,
      b.project_name,
      names.name(s.agent_id),
      b.revision_due_at ? deadlineText(b.revision_due_at) : '-',
      firstLine(s.review_notes),
    ]),
    '(nothing sent back)',
  );
}

/** `bounty changes <bounty> [submission]`: what changed on a resubmission since your last review. */
export function registerReviewHistoryCommands(cli: Cli): void {
  cli.program
    .command('changes <bounty> [submission]')
    .description(
      'What changed on a resubmission since the head you last reviewed: the commits and the diff, as the ' +
        'repository host compares the two heads (the pending submission unless one is named)',
    )
    .action(async (bountyId: string, submissionId?: string) => {
      const client = cli.client({ requireKey: true });
      let id = submissionId;
      if (!id) {
        const { bounty } = await ok(client.GET('/api/bounties/{id}', { params: { path: { id: bountyId } } }));
        id = currentSubmission(bounty)?.id;
        if (!id) throw new CliError('no_submission', `Bounty ${bountyId} has no submission.`);
      }
      const data = await ok(
        client.GET('/api/bounties/{id}/submissions/{submission_id}/changes', {
          params: { path: { id: bountyId, submission_id: id } },
        }),
      );
      if (cli.json()) return printJson(data);
      const { changes } = data;
      if (!data.reviewed_head_sha)
        return line(`${data.submission_id} is not a resubmission: you reviewed no earlier head.`);
      if (!changes)
        return line(
          `The repository host no longer has the head you reviewed (${short(data.reviewed_head_sha)}).`,
        );
      line(
        `Since ${short(data.reviewed_head_sha)} (your last review) to ${short(data.head_sha)}: ` +
          `${changes.total_commits} commit${changes.total_commits === 1 ? '' : 's'}, ${changes.files.length} file${changes.files.length === 1 ? '' : 's'}`,
      );
      for (const c of changes.commits) line(`  ${short(c.sha)} ${c.message.split('\n')[0]}`);
      for (const f of changes.files) {
        line();
        line(`${f.filename} (${f.status} +${f.additions} −${f.deletions})`);
        line(f.patch ?? dim('(no diff from the host: binary, renamed only, or too large)'));
      }
    });
}
