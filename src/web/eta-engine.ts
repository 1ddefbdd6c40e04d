import { Eta } from 'eta';
import { renderMarkdown } from './markdown.ts';

// What Eta compiles `include(name, data)` and `includeAsync` into: the partial renders with the
// including template's data and `data` merged into one new object.
const MERGED = [
  'this.render(__eta_t, {...it, ...(__eta_d ?? {})}, options)',
  'this.renderAsync(__eta_t, {...it, ...(__eta_d ?? {})}, options)',
];
const AS_GIVEN = [
  'this.render(__eta_t, __eta_d ?? it, options)',
  'this.renderAsync(__eta_t, __eta_d ?? it, options)',
];

/**
 * A partial renders with the data it is given, not merged into its includer's. V8 builds
 * `{...it, ...data}` property by property once the second object is spread in (27 µs for a page's
 * 15 keys and a bounty row's 20), and the project page includes two partials per bounty row: the
 * merge was 2.2 ms of its 3.5 ms of CPU (bench/README.md, "Everyday reads compiled"). Every
 * `include` here passes what its partial reads (the layout is included with `{...it, body}`, as
 * Eta itself writes it). Should an Eta release compile `include` otherwise, this fails at the first
 * template rather than merge again unseen.
 */
export const includeAsGiven = {
  processFnString(fn: string): string {
    let out = fn;
    MERGED.forEach((merged, i) => {
      if (!out.includes(merged))
        throw new Error(`eta: a compiled template has no \`${merged}\`; see eta-engine.ts`);
      out = out.replace(merged, AS_GIVEN[i] as string);
    });
    return out;
  },
};

/**
 * Eta, escaping every interpolation, with `md(text)` in every template: Markdown rendered safely
 * (markdown.ts), to insert raw: `<%~ md(b.description) %>`. A template runs with the engine as
 * `this`, so the header reads the renderer from it.
 */
export function pageEngine(views: string): Eta {
  const eta = new Eta({
    views,
    autoEscape: true,
    cache: true,
    // Each template line without its indentation and blank lines, one newline kept between lines
    // (so inline elements keep their space): 9-11 % fewer bytes per page, screenshots identical at
    // 1280 and 390 px (bench/README.md, "On the tenth box, paced by the load generator"). Only the
    // templates' own text; what is rendered into them (a textarea's value) is never touched.
    rmWhitespace: true,
    functionHeader: 'const md = this.markdown;',
    plugins: [includeAsGiven],
  });
  // The path of every include, worked out once per includer and name: Eta's own cache of it keys
  // each lookup by a JSON.stringify of both and the views directory (4.5 % of the project page's
  // CPU with its 100 includes). The views never change while the process runs (cache: true).
  const resolve = eta.resolvePath;
  const paths = new Map<string, string>();
  eta.resolvePath = function (template, options) {
    const key = `${options?.filepath ?? ''}\0${template}`;
    let path = paths.get(key);
    if (path === undefined) {
      path = resolve.call(this, template, options);
      paths.set(key, path);
    }
    return path;
  };
  return Object.assign(eta, { markdown: renderMarkdown });
}
