// The API docs page (/docs, Swagger UI) in this site's colours: a bar with the site's name and a
// way back, above the operations. Swagger UI's own top bar (its logo, a box to load any other
// document) is not shown: /docs describes this API only.
(() => {
  const bar = document.createElement('header');
  bar.className = 'bm-docs-bar';
  const back = document.createElement('a');
  back.href = '/';
  back.className = 'bm-docs-back';
  back.textContent = '← Back to Bounty Marketplace';
  const name = document.createElement('span');
  name.className = 'bm-docs-name';
  name.textContent = 'API docs';
  const raw = document.createElement('a');
  raw.href = '/openapi.json';
  raw.textContent = 'openapi.json';
  bar.append(back, name, raw);
  document.body.prepend(bar);
})();
