import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../infra/config.ts';
import { AppError } from '../../lib/errors.ts';
import { RegisterBody } from '../../modules/agents/agents.schemas.ts';
import { CSRF_FIELD, csrfRefused, sameOrigin } from '../csrf.ts';
import { validatorOnFirstUse } from '../first-use.ts';
import { formRoute, safeNext, startSession } from '../session.ts';

/**
 * Registration from the web: the same `AgentsService.register` as `POST /api/agents/register`,
 * then the new key shown once and this browser signed in with it. No session exists yet, so the
 * form's CSRF token is a double-submit one: a random value in an HttpOnly, SameSite=Strict cookie
 * scoped to /sign-up and the same value in the form; the POST needs both to match, and the
 * browser's own word on where it comes from (`sameOrigin`), as for sign-in.
 */

const FORM_COOKIE = 'bm_signup';
const cookieOptions = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'strict' as const,
  path: '/sign-up',
  secure: request.protocol === 'https',
});

/** The rules of RegisterBody, in words, for the fields a person fills in. */
export const SIGN_UP_RULES = {
  name:
    'Use 2 to 64 characters: letters, digits, spaces, dots, dashes and underscores; ' +
    'it cannot start or end with a space.',
  description: 'Use at most 500 characters.',
} as const;

const validator = validatorOnFirstUse(RegisterBody, 'body');

interface FormValues {
  name: string;
  description: string;
}

type FormErrors = Partial<Record<keyof FormValues, string>>;

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Field errors of the form against the API's own schema, each field's rule in words. */
function problemsOf(values: FormValues): FormErrors {
  const body = { name: values.name, ...(values.description ? { description: values.description } : {}) };
  const validate = validator();
  if (validate(body)) return {};
  const errors: FormErrors = {};
  for (const e of validate.errors ?? []) {
    const field = e.instancePath.replace(/^\//, '') || String(e.params.missingProperty ?? '');
    if (field === 'name' || field === 'description') errors[field] = SIGN_UP_RULES[field];
  }
  // Anything else the schema refused (it has no other field a person fills): said on the name.
  return Object.keys(errors).length > 0 ? errors : { name: SIGN_UP_RULES.name };
}

function sameToken(sent: unknown, expected: string | undefined): boolean {
  if (typeof sent !== 'string' || !expected) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface SignUpOptions {
  /**
   * With it, `RATE_LIMIT_REGISTER_PER_IP_PER_HOUR` applies here too: the client's one hourly
   * registration budget (`app.clientBudgets`), which the API and MCP `register_agent` spend as well.
   * Without it only the global per-minute limit does.
   */
  rateLimit?: Config['rateLimit'];
}

export function registerSignUp(app: FastifyInstance, opts: SignUpOptions) {
  const limited = opts.rateLimit !== undefined;

  const formPage = (
    reply: FastifyReply,
    status: number,
    data: { next: string; token: string; values?: FormValues; errors?: FormErrors; error?: string },
  ) =>
    reply
      .status(status)
      .header('cache-control', 'no-store')
      .view('sign-up.eta', {
        title: 'Create an agent',
        session: null,
        values: { name: '', description: '' },
        errors: {},
        error: null,
        rules: SIGN_UP_RULES,
        created: null,
        ...data,
      });

  /** The form's token: the browser's own while it has one (two tabs both work), else a new one. */
  const formToken = (request: FastifyRequest, reply: FastifyReply) => {
    const existing = request.cookies[FORM_COOKIE];
    if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
    const token = randomBytes(32).toString('base64url');
    reply.setCookie(FORM_COOKIE, token, cookieOptions(request));
    return token;
  };

  app.get('/sign-up', { page: true, schema: { hide: true } }, async (request, reply) => {
    const next = safeNext((request.query as { next?: unknown }).next);
    if (request.webSession) return reply.redirect(next, 303);
    return formPage(reply, 200, { next, token: formToken(request, reply) });
  });

  app.post('/sign-up', formRoute, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const next = safeNext(body.next);
    // The form sent again after it made an agent (a reload of the page with the key): that page is
    // gone for good; say so instead of refusing it as a form from another site.
    if (request.webSession && !request.cookies[FORM_COOKIE] && sameOrigin(request))
      return reply.status(409).header('cache-control', 'no-store').view('sign-up.eta', {
        title: 'Your agent is ready',
        session: request.webSession,
        shownOnce: true,
        next,
      });
    if (!sameOrigin(request) || !sameToken(body[CSRF_FIELD], request.cookies[FORM_COOKIE]))
      return csrfRefused(reply);
    const token = request.cookies[FORM_COOKIE] as string;
    const values = { name: text(body.name).trim(), description: text(body.description).trim() };
    const again = (status: number, more: { errors?: FormErrors; error?: string }) =>
      formPage(reply, status, { next, token, values, ...more });
    if (request.validationError)
      return again(400, { error: 'The form could not be read; reload the page and try again.' });
    const errors = problemsOf(values);
    if (Object.keys(errors).length > 0) return again(400, { errors, error: 'Some fields need fixing.' });
    if (limited) {
      const spent = await app.clientBudgets.registration(request);
      if (!spent.ok) {
        reply.header('retry-after', spent.retryAfterSeconds);
        return again(429, {
          error: `Too many agents were registered from your network in the last hour. Try again in ${Math.ceil(spent.retryAfterSeconds / 60)} minutes.`,
        });
      }
    }
    let agent: Awaited<ReturnType<typeof app.services.agents.register>>;
    try {
      agent = await app.services.agents.register({
        name: values.name,
        ...(values.description ? { description: values.description } : {}),
      });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      if (err.code === 'name_taken')
        return again(409, {
          errors: {
            name: `An agent named “${values.name}” already exists (names are compared ignoring case, Unicode compatibility forms and the separators - _ . and spaces). Choose another name.`,
          },
          error: 'That name is taken.',
        });
      return again(err.status, { error: err.message });
    }
    const sessionToken = await startSession(app.webSessions, request, reply, agent.id);
    // Used: sending this form again (a reload of this answer) is refused, never a second agent.
    reply.clearCookie(FORM_COOKIE, cookieOptions(request));
    const session = await app.webSessions.find(sessionToken);
    return reply
      .status(201)
      .header('cache-control', 'no-store')
      .view('sign-up.eta', {
        title: 'Your agent is ready',
        session,
        created: { id: agent.id, name: agent.name, apiKey: agent.api_key },
        next,
      });
  });
}
