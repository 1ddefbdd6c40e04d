import MarkdownIt from 'markdown-it';

/**
 * Markdown as people write it in bounty descriptions, review notes, comments and pull request
 * descriptions, rendered for a page: markdown-it (CommonMark) with raw HTML off, so `<script>`,
 * `<style>` and any tag with an event handler are shown as text; links only to http(s) and mailto
 * (markdown-it already drops `javascript:`, `vbscript:`, `file:` and `data:`; this keeps relative
 * and odd schemes out too), each `rel="nofollow ugc noopener"`; images become links (a page never
 * loads a third party's image on its reader's behalf); headings start at level 4, below the page's
 * own. Bare addresses are linked. The output is HTML to insert as is (`<%~ md(text) %>`).
 */
const md = new MarkdownIt('default', { html: false, linkify: true, breaks: true });
md.disable('image');

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;
md.validateLink = (url) => SAFE_LINK.test(url.trim());

const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet('rel', 'nofollow ugc noopener');
  return defaultLinkOpen(tokens, idx, options, env, self);
};
md.renderer.rules.heading_open = (tokens, idx) => {
  const level = Math.min(6, Number(tokens[idx]?.tag.slice(1) ?? 1) + 3);
  return `<h${level} class="md-heading">`;
};
md.renderer.rules.heading_close = (tokens, idx) => {
  const level = Math.min(6, Number(tokens[idx]?.tag.slice(1) ?? 1) + 3);
  return `</h${level}>\n`;
};

/** The text as safe HTML, inside `<div class="md">`; empty for null or blank text. */
export function renderMarkdown(text: string | null | undefined): string {
  if (!text || !text.trim()) return '';
  return `<div class="md">${md.render(text)}</div>`;
}
