import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { helpers } from './format.ts';
import {
  type ConsoleCtx,
  type ConsoleDeps,
  consoleCtx,
  type Loader,
  PAGES,
  redirectWithFlash,
  registerAction,
  setFlash,
  toSignIn,
} from './kit.ts';

// Activation creates a repository and deploys two contracts: usually seconds. A form waits this
// long for it, then shows the progress page instead of holding the browser.
const WAIT_INLINE_MS = 1500;

/**
 * Activations started from this instance's console: running ones, and the last failure of each
 * project (shown on its progress page). The service's lease still makes any second activation,
 * from any instance or the API, a 409.
 */
export class ActivationTracker {
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly failed = new Map<string, string>();

  isRunning(projectId: string): boolean {
    return this.running.has(projectId);
  }

  failure(projectId: string): string | null {
    return this.failed.get(projectId) ?? null;
  }

  /** Starts the activation in the background and reports whether it ended within `waitMs`. */
  async start(
    projectId: string,
    activate: () => Promise<unknown>,
    waitMs: number,
  ): Promise<'done' | 'running'> {
    this.failed.delete(projectId);
    const run = activate();
    this.running.set(projectId, run);
    run
      .catch((err: unknown) => {
        this.failed.set(
          projectId,
          err instanceof AppError ? err.message : 'The activation failed; it has been logged. Try again.',
        );
      })
      .finally(() => this.running.delete(projectId));
    let timer: NodeJS.Timeout | undefined;
    const later = new Promise<'running'>((resolve) => {
      timer = setTimeout(() => resolve('running'), waitMs);
    });
    try {
      const outcome = await Promise.race([run.then(() => 'done' as const), later]);
      return outcome;
    } catch (err) {
      // Shown on the form right away: not a failure to report again on the progress page.
      this.failed.delete(projectId);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}

const progressPath = (id: string) => `/console/projects/${encodeURIComponent(id)}/activation`;

async function founderProject(ctx: ConsoleCtx, id: string) {
  const project = await ctx.services.projects.get(id);
  if (project.founder_id !== ctx.session.agentId)
    throw new AppError('forbidden', 'Only the project founder can follow its activation.');
  return project;
}

const activatedFlash = (name: string) =>
  `Project “${name}” is active: its repository and token are ready. Buy tokens and set the allowance to post bounties.`;

/**
 * Activate with visible progress: the form waits briefly, then the progress page polls the
 * project's status (htmx every second; a meta refresh without JavaScript) and returns to the
 * projects page when it is active, or shows why it failed with a button to try again.
 */
export function registerActivationPages(
  app: FastifyInstance,
  deps: ConsoleDeps,
  tracker: ActivationTracker,
  load: Loader,
): void {
  registerAction(app, deps, {
    page: 'projects',
    load,
    path: '/console/projects/:id/activate',
    form: (p: { id: string }) => `activate-${p.id}`,
    run: async (ctx, { id }) => {
      const outcome = await tracker.start(
        id,
        () => ctx.services.activation.activate(ctx.session.agentId, id),
        WAIT_INLINE_MS,
      );
      if (outcome === 'running') return { flash: 'Activation started.', to: progressPath(id) };
      return { flash: activatedFlash((await ctx.services.projects.get(id)).name) };
    },
  });

  const progress = async (id: string, ctx: ConsoleCtx) => {
    const project = await founderProject(ctx, id);
    return { project, failure: tracker.failure(id), running: tracker.isRunning(id) };
  };

  app.get(
    '/console/projects/:id/activation',
    { page: true, schema: { hide: true } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const ctx = await consoleCtx(deps, request);
      if (!ctx) return toSignIn(reply, progressPath(id));
      try {
        const state = await progress(id, ctx);
        if (state.project.status === 'active')
          return redirectWithFlash(reply, PAGES.projects.path, activatedFlash(state.project.name));
        return reply.header('cache-control', 'no-store').view('console/activation.eta', {
          title: 'Activating a project',
          session: ctx.session,
          h: helpers(null, ctx.explorerUrl),
          ...state,
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return reply.status(err.status).view('console/message.eta', {
          title: 'Activation',
          session: ctx.session,
          heading: 'This activation cannot be shown',
          message: err.message,
        });
      }
    },
  );

  // The fragment htmx polls. Once the project is active it sends the browser on (HX-Redirect);
  // after a failure it reloads the whole page, which then shows the reason and a retry button.
  app.get(
    '/console/projects/:id/activation/status',
    { page: true, schema: { hide: true } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const ctx = await consoleCtx(deps, request);
      if (!ctx) return toSignIn(reply, progressPath(id));
      const state = await progress(id, ctx).catch(() => null);
      if (!state || state.failure || !state.running) {
        if (state?.project.status === 'active') {
          // Not a 303: the XMLHttpRequest would follow it and htmx would never see the header.
          setFlash(reply, activatedFlash(state.project.name));
          return reply.header('HX-Redirect', PAGES.projects.path).send('');
        }
        return reply.header('HX-Refresh', 'true').send('');
      }
      return reply
        .header('cache-control', 'no-store')
        .view('console/activation-status.eta', { project: state.project });
    },
  );
}
