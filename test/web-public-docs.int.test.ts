import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_TITLE, docsUiOptions } from '../src/web/public/docs-ui.ts';

/**
 * /docs as this product's page: @fastify/swagger-ui registered with `docsUiOptions` (as app.ts
 * does) answers with our title, favicon and theme, a way back to the site, and no Swagger top bar.
 */

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  await app.register(swagger, { openapi: { info: { title: 'Bounty Marketplace API', version: '1.0.0' } } });
  await app.register(swaggerUi, { routePrefix: '/docs', ...docsUiOptions });
  await app.ready();
});

afterAll(() => app?.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('the API docs page', () => {
  it("has this product's title and favicon, and loads the site's theme", async () => {
    const res = await get('/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<title>${DOCS_TITLE}</title>`);
    expect(res.body).not.toContain('<title>Swagger UI</title>');
    expect(res.body).toMatch(/<link rel="icon" type="image\/svg\+xml" href="[^"]*\/theme\/favicon\.svg"/);
    expect(res.body).not.toContain('favicon-32x32.png');
    expect(res.body).toMatch(
      /<link rel="stylesheet" type="text\/css" href="[^"]*\/theme\/bounty-marketplace\.css"/,
    );
    expect(res.body).toMatch(/<script src="[^"]*\/theme\/bounty-marketplace\.js"/);
    const icon = await get('/docs/static/theme/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.body).toContain('<title>Bounty Marketplace</title>');
  });

  it('adds a link back to the site and drops the Swagger top bar and logo', async () => {
    const js = await get('/docs/static/theme/bounty-marketplace.js');
    expect(js.statusCode).toBe(200);
    expect(js.body).toContain("back.href = '/'");
    expect(js.body).toContain('← Back to Bounty Marketplace');
    const init = await get('/docs/static/swagger-initializer.js');
    expect(init.body).toContain('"layout":"BaseLayout"');
    // No logo swapped in (the stock one is Swagger's).
    expect(init.body).not.toContain('data:image/svg+xml;base64');
    const css = await get('/docs/static/theme/bounty-marketplace.css');
    expect(css.body).toContain('.bm-docs-bar');
  });
});
