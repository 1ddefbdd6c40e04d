import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../compose.ts';
import { AppError } from '../../lib/errors.ts';
import { CommentBody } from '../../modules/comments/comments.schemas.ts';
import { SubmitBody } from '../../modules/reviews/reviews.schemas.ts';
import { clipForCookie } from '../cookie-text.ts';
import { csrfRefused, verifyCsrf } from '../csrf.ts';
import { validatorOnFirstUse } from '../first-use.ts';
import { formRoute } from '../session.ts';
import type { WebSession } from '../web-core.ts';

/**
 * The bounty page's own forms: claim, give back, submit, comment. Each is signed in, CSRF-checked and calls
 * the service the JSON route calls (`BountiesService.claim` / `unclaim`,
 * `SubmissionsService.submit`); success goes back to the bounty page (303) with a notice, an
 * AppError is shown on the form that was sent, with the service's status. They live here, not
 * in the console, because the next step (the repository steps, the submit form) is on this page.
 */

export type BountyForm = 'claim' | 'unclaim' | 'submit' | 'comment';

/** A form's failure as the page shows it: in that form, with what was typed put back. */
export interface ActionError {
  form: BountyForm;
  message: string;
  value: string;
}

export type RenderBounty = (
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  extra: { status: number; error: ActionError },
) => Promise<unknown>;

const NOTICE_COOKIE = 'bm_notice';
const noticeCookie = (request: FastifyRequest) => ({
  path: '/bounties',
  httpOnly: true,
  sameSite: 'lax' as const,
  maxAge: 60,
  secure: request.protocol === 'https',
});

/** Post/Redirect/Get: the notice rides in a cookie for the next bounty page view (a minute at most). */
export function takeNotice(request: FastifyRequest, reply: FastifyReply): string | null {
  const notice = request.cookies[NOTICE_COOKIE];
  if (!notice) return null;
  reply.clearCookie(NOTICE_COOKIE, noticeCookie(request));
  return notice;
}

/** What a give-back notice adds: the giver may not claim the bounty again for RECLAIM_COOLDOWN_HOURS. */
export function claimAgainIn(services: Services): string {
  const hours = services.bounties.reclaimCooldownHours;
  return hours > 0 ? ` You may claim it again in ${hours} hours.` : '';
}

const validSubmit = validatorOnFirstUse(SubmitBody, 'body');
const validComment = validatorOnFirstUse(CommentBody, 'body');

type Run = (
  services: Services,
  session: WebSession,
  id: string,
  body: Record<string, unknown>,
) => Promise<string>;

const RUNS: Record<BountyForm, Run> = {
  claim: async (services, session, id) => {
    const { bounty, warnings } = await services.bounties.claim(session.agentId, id);
    const note = warnings?.length ? ` ${warnings.join(' ')}` : '';
    return `You claimed “${bounty.title}”. The steps below take it from here.${note}`;
  },
  unclaim: async (services, session, id) => {
    const bounty = await services.bounties.unclaim(session.agentId, id);
    return `You gave “${bounty.title}” back; it is open again.${claimAgainIn(services)}`;
  },
  submit: async (services, session, id, body) => {
    const pr_url = typeof body.pr_url === 'string' ? body.pr_url.trim() : '';
    if (!validSubmit()({ pr_url }))
      throw new AppError(
        'validation_error',
        'Paste the address of your pull request (at most 500 characters).',
      );
    await services.submissions.submit(session.agentId, id, pr_url);
    return 'Your pull request was submitted: the founder reviews it now.';
  },
  comment: async (services, session, id, body) => {
    const text = typeof body.body === 'string' ? body.body : '';
    if (!validComment()({ body: text }))
      throw new AppError(
        'validation_error',
        'Write a comment of 1 to 4000 characters, with some visible text.',
      );
    await services.comments.post(session.agentId, id, text);
    return 'Your comment was posted.';
  },
};

/** Where the page scrolls to after a form: the conversation for a comment, the next step otherwise. */
const anchorOf = (form: BountyForm) => (form === 'comment' ? '#comments' : '#next-step');
/** What the failed form had typed, put back. */
const typed = (body: Record<string, unknown>) =>
  typeof body.pr_url === 'string' ? body.pr_url : typeof body.body === 'string' ? body.body : '';

export function registerBountyActions(app: FastifyInstance, services: Services, render: RenderBounty) {
  for (const form of Object.keys(RUNS) as BountyForm[]) {
    app.post<{ Params: { id: string } }>(`/bounties/:id/${form}`, formRoute, async (request, reply) => {
      const { id } = request.params;
      const page = `/bounties/${encodeURIComponent(id)}`;
      const session = request.webSession;
      if (!session) return reply.redirect(`/sign-in?next=${encodeURIComponent(page)}`, 303);
      if (!verifyCsrf(request, session)) return csrfRefused(reply);
      const body = (request.body ?? {}) as Record<string, unknown>;
      try {
        if (request.validationError)
          throw new AppError(
            'validation_error',
            'The form could not be read; reload the page and try again.',
          );
        const notice = await RUNS[form](services, session, id, body);
        reply.setCookie(NOTICE_COOKIE, clipForCookie(notice), noticeCookie(request));
        return reply.redirect(`${page}${anchorOf(form)}`, 303);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.status >= 500) request.log.warn({ err }, `bounty ${form} failed`);
        const value = typed(body);
        return render(request, reply, id, {
          status: err.status,
          error: { form, message: err.message, value },
        });
      }
    });
  }
}
