/**
 * The host pages' stylesheet: plain, readable, never wider than a phone (long names, SHAs and
 * patch lines wrap). Served at STYLESHEET_PATH rather than inline: the pages carry the app's
 * content security policy (`style-src 'self'`), which refuses inline styles. `-` is no GitHub
 * login, so no org's path.
 */
export const STYLESHEET_PATH = '/-/style.css';
export const STYLESHEET = `body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
a{color:#0969da}code,pre{background:#f6f8fa;padding:.15rem .35rem;border-radius:4px}pre{padding:.8rem;white-space:pre-wrap}
.state{display:inline-block;padding:.1rem .7rem;border-radius:1rem;color:#fff;font-weight:600}
.open{background:#1f883d}.merged{background:#8250df}.closed{background:#cf222e}
table{border-collapse:collapse}td{padding:.2rem .8rem .2rem 0;vertical-align:top}small{color:#59636e}
.success{color:#1a7f37}.failure,.error{color:#cf222e}.pending{color:#9a6700}
label{display:block;font-weight:600;margin:.8rem 0 .2rem}input,textarea{width:100%;box-sizing:border-box;font:inherit;padding:.35rem .5rem}
button{margin-top:1rem;font:inherit;font-weight:600;padding:.4rem 1rem;background:#1f883d;color:#fff;border:0;border-radius:6px}
p.error{font-weight:600}h1,li,.ref,.sha,code,pre{overflow-wrap:anywhere}
.md{overflow-wrap:anywhere;border:1px solid #d1d9e0;border-radius:6px;padding:0 .8rem}.md-heading{margin:.8rem 0 .3rem}
.commits,.checks{padding-left:1.4rem}button:disabled{background:#8c959f}
button.link{margin:0;padding:0;font-size:.85em;background:none;color:#0969da;font-weight:400;text-decoration:underline}
footer{margin-top:2rem;border-top:1px solid #d1d9e0}
.diff h4{font-size:1.5em;margin:1.5rem 0 .5rem}.diff .note{margin:.5rem .75rem}.meta,.diff-file-status{color:#59636e}
.diff-file{border:1px solid #d1d9e0;border-radius:6px;margin-bottom:.75rem;overflow:hidden}
.diff-file-head{margin:0;padding:.4rem .75rem;background:#f6f8fa;border-bottom:1px solid #d1d9e0;font-size:.92rem;font-weight:400;overflow-wrap:anywhere}
.additions{color:#166534;font-weight:600}.deletions{color:#991b1b;font-weight:600}
.diff-fold-summary{cursor:pointer;padding:.4rem .75rem;color:#0969da;font-weight:600}
.diff-lines{font:.82rem/1.45 ui-monospace,monospace}.dl{display:flex;min-height:1.45em}
.dl-n{flex:0 0 3em;padding-right:.5em;text-align:right;color:#59636e;user-select:none}
.dl code{flex:1 1 auto;min-width:0;padding:0 .5rem 0 0;background:none;border-radius:0;white-space:pre-wrap;tab-size:4}
.dl-add{background:#e6ffec}.dl-del{background:#ffebe9}.dl-hunk{background:#ddf4ff;color:#1e3a8a}.dl-meta{color:#59636e;font-style:italic}`;
