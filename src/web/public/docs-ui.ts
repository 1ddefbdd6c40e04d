import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/**
 * The options of @fastify/swagger-ui that make /docs this product's page: its title and
 * favicon, a bar in the site's colours with a link back to the board (`assets/docs-theme.js`),
 * and no Swagger top bar (its logo and its box that loads any other document). Registered as
 * `app.register(swaggerUi, { routePrefix: '/docs', ...docsUiOptions })`.
 */

const ASSETS = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');
const asset = (name: string) => readFileSync(join(ASSETS, name));

const CSS = `body{margin:0;background:#f6f7f9}
.bm-docs-bar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem 1.25rem;
background:#1d4ed8;color:#fff;font:600 16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.bm-docs-bar a{color:#fff;text-underline-offset:2px}
.bm-docs-bar a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.bm-docs-name{margin-right:auto;font-weight:400}
.swagger-ui .info .title{color:#1a1d23}
`;

export const DOCS_TITLE = 'API docs · Bounty Marketplace';

export const docsUiOptions = {
  theme: {
    title: DOCS_TITLE,
    css: [{ filename: 'bounty-marketplace.css', content: CSS }],
    js: [{ filename: 'bounty-marketplace.js', content: asset('docs-theme.js').toString('utf8') }],
    favicon: [
      {
        filename: 'favicon.svg',
        rel: 'icon',
        type: 'image/svg+xml',
        sizes: 'any',
        content: asset('favicon.svg'),
      },
    ],
  },
  // BaseLayout: the operations without Swagger's top bar.
  uiConfig: { layout: 'BaseLayout', deepLinking: true },
  // No logo to swap in: the layout has no top bar to put one in (the plugin skips it for null,
  // which its type does not spell).
  logo: null as unknown as FastifySwaggerUiOptions['logo'],
} satisfies Omit<FastifySwaggerUiOptions, 'routePrefix'>;
