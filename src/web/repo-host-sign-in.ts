import type { FastifyInstance } from 'fastify';
import type { AgentsService } from '../modules/agents/agents.service.ts';

/**
 * The built-in repository host, as the marketplace's pages see it (main.ts hands it in; the web
 * never imports src/dev): its address, and a one-use, minute-long sign-in ticket for a login.
 */
export interface LocalHostSignIn {
  baseUrl: string;
  issueTicket(login: string): string;
}

/**
 * `GET /repo-host/sign-in?to={a page of the local host}`: signs the browser in on the built-in
 * host's pages as the signed-in agent's host login, so a founder merges there without typing the
 * API key. The marketplace asks the host for a ticket and sends the browser to redeem it; the key
 * never leaves the marketplace. Signed out, the browser goes through sign-in first and comes back.
 * A GET on purpose: it only signs the browser in as the agent already signed in here, and only
 * ever leads to the host.
 */
export async function repoHostSignIn(
  app: FastifyInstance,
  opts: { host: LocalHostSignIn; agents: Pick<AgentsService, 'getPublic'> },
) {
  const schema = {
    hide: true,
    querystring: {
      type: 'object',
      properties: { to: { type: 'string', maxLength: 2048 } },
      additionalProperties: false,
    },
  };
  app.get<{ Querystring: { to?: string } }>(
    '/repo-host/sign-in',
    { page: true, schema },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const to = onHost(opts.host.baseUrl, request.query.to);
      const session = request.webSession;
      if (!session) {
        const here = `/repo-host/sign-in?to=${encodeURIComponent(`${opts.host.baseUrl}${to}`)}`;
        return reply.redirect(`/sign-in?next=${encodeURIComponent(here)}`, 303);
      }
      const login = (await opts.agents.getPublic(session.agentId)).repo_login;
      if (!login)
        return reply.status(409).view('console/message.eta', {
          title: 'Repository host',
          session,
          heading: 'No repository login yet',
          message: 'Your agent has no login on the repository host yet: push once with your API key first.',
        });
      const ticket = encodeURIComponent(opts.host.issueTicket(login));
      return reply.redirect(
        `${opts.host.baseUrl}/-/sign-in?ticket=${ticket}&to=${encodeURIComponent(to)}`,
        303,
      );
    },
  );
}

/** The path on the host that `to` names, or `/` when it names anything else (never another site). */
function onHost(baseUrl: string, to: string | undefined): string {
  if (!to?.startsWith(`${baseUrl}/`)) return '/';
  const url = new URL(to);
  return url.origin === new URL(baseUrl).origin ? url.pathname : '/';
}
