// Live parts of a page, without a reload: follows an event stream and, on an event that concerns
// the part, re-fetches it as a fragment and merges it into the page, keeping what the person is
// using (an open confirmation, typed text, the focus). Without JavaScript the page still works;
// it just does not update by itself.
//
// The page says what to follow, so any page can use it:
//   <p id="live-status" role="status" data-live-for="REGION_ID" data-live-stream="/console/events"
//      data-live-label="Review queue" data-live-types="submission.created bounty.claimed …">
//   <div id="REGION_ID" data-live-url="/page?fragment=live"      (the fragment: this element again)
//        data-live-projects="id …" data-live-bounties="id …"     (events of these concern it)
//        data-live-agent="agent id" data-live-any="bounty.created …"
//        data-live-summary="2 waiting">                           (said after an update)
//   Items the merge keeps whole while in use: article[id], li[id], tr[id], [data-live-item][id].
// The status element gets data-live="connected" once the stream is open (tests wait for it).
(() => {
  const status = document.querySelector('[data-live-for][data-live-stream]');
  if (!status || typeof EventSource === 'undefined' || typeof fetch === 'undefined') return;
  const regionId = status.dataset.liveFor;
  const label = status.dataset.liveLabel || 'This page';
  const region = () => document.getElementById(regionId);
  const words = (value) => (value || '').split(/\s+/).filter(Boolean);
  // Personal events reach only the viewer: each concerns the page.
  const PERSONAL = ['payout.failed', 'claim.expiring', 'bounty.payable', 'bounty.unpayable'];

  function concerns(event) {
    const r = region();
    if (!r) return false;
    const d = r.dataset;
    if (PERSONAL.includes(event.type) || words(d.liveAny).includes(event.type)) return true;
    if (d.liveAgent && event.agent_id === d.liveAgent) return true;
    if (event.project_id && words(d.liveProjects).includes(event.project_id)) return true;
    return Boolean(event.bounty_id && words(d.liveBounties).includes(event.bounty_id));
  }

  // ---- What the person is using: kept as it is through an update.

  function dirty(field) {
    if (field.closest('details:not([open])')) return false;
    if (field instanceof HTMLSelectElement)
      return [...field.options].some((o) => o.selected !== o.defaultSelected);
    if (field.type === 'checkbox' || field.type === 'radio') return field.checked !== field.defaultChecked;
    if (field.type === 'hidden') return false;
    return field.value !== field.defaultValue;
  }

  function inUse(el) {
    const active = document.activeElement;
    if (active && active !== document.body && el.contains(active)) return true;
    if (el.matches('details[open]') || el.querySelector('details[open]')) return true;
    if (el.matches('form[data-sent]') || el.querySelector('form[data-sent]')) return true;
    return [...el.querySelectorAll('input, textarea, select')].some(dirty);
  }

  // ---- The merge: new content everywhere except inside what is in use.

  const ITEM = 'article[id], li[id], tr[id], [data-live-item][id]';

  function keyOf(el, counts) {
    if (el.id) return `#${el.id}`;
    const n = counts.get(el.tagName) || 0;
    counts.set(el.tagName, n + 1);
    return `${el.tagName}:${n}`;
  }

  function keyed(parent) {
    const counts = new Map();
    const map = new Map();
    for (const child of parent.children) map.set(keyOf(child, counts), child);
    return map;
  }

  /** Puts `nodes` in `container` in order, moving an old node only when it is out of order. */
  function reconcile(container, nodes) {
    const wanted = new Set(nodes);
    for (const child of [...container.childNodes]) if (!wanted.has(child)) child.remove();
    let cursor = container.firstChild;
    for (const node of nodes) {
      if (node === cursor) cursor = cursor.nextSibling;
      else container.insertBefore(node, cursor);
    }
  }

  /** The node to put in the page for `next`: `next` itself, or `old` kept and merged. */
  function merged(old, next) {
    if (!inUse(old)) return next;
    // In use: an item, a form or an open <details> is kept whole until it is not.
    if (old.matches(`${ITEM}, form, details[open]`)) return old;
    for (const { name } of [...old.attributes]) if (!next.hasAttribute(name)) old.removeAttribute(name);
    for (const { name, value } of [...next.attributes])
      if (old.getAttribute(name) !== value) old.setAttribute(name, value);
    const olds = keyed(old);
    const counts = new Map();
    const nodes = [...next.childNodes].map((n) => {
      if (n.nodeType !== Node.ELEMENT_NODE) return n;
      const match = olds.get(keyOf(n, counts));
      return match && match.tagName === n.tagName ? merged(match, n) : n;
    });
    reconcile(old, nodes);
    return old;
  }

  /** Merges `next` into the page; false when an item in use would disappear (applied later). */
  function apply(current, next) {
    const used = [...current.querySelectorAll(ITEM)].filter(inUse);
    if (used.some((item) => !next.querySelector(`#${CSS.escape(item.id)}`))) return false;
    const active = document.activeElement;
    const selection =
      active && typeof active.selectionStart === 'number'
        ? [active.selectionStart, active.selectionEnd]
        : null;
    const node = merged(current, next);
    if (node !== current) current.replaceWith(node);
    if (active && active !== document.body && active.isConnected && document.activeElement !== active) {
      active.focus({ preventScroll: true });
      if (selection) active.setSelectionRange(selection[0], selection[1]);
    }
    return true;
  }

  // ---- Fetching: bursts of events become one request; one request at a time.

  // At most one fetch per MIN_GAP_MS: a busy site's events do not become a stream of requests.
  const MIN_GAP_MS = 1500;
  let timer = null;
  let running = false;
  let again = false;
  let waiting = false;
  let changes = 0;
  let lastRun = 0;

  function schedule(delay) {
    if (timer !== null) return;
    timer = setTimeout(refresh, Math.max(delay, lastRun + MIN_GAP_MS - Date.now()));
  }

  function say(text) {
    status.textContent = text;
    status.dataset.updated = String(Date.now());
  }

  async function refresh() {
    timer = null;
    const current = region();
    if (!current) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    lastRun = Date.now();
    try {
      const res = await fetch(current.dataset.liveUrl, {
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { accept: 'text/html' },
      });
      // Signed out meanwhile (or any failure): the page stays as it is; the next event retries.
      if (!res.ok || res.redirected) return;
      const template = document.createElement('template');
      template.innerHTML = await res.text();
      const next = template.content.getElementById(regionId);
      if (!next) return;
      if (!apply(current, next)) {
        waiting = true;
        say(`${label}: changes are waiting; they show when you close the open form.`);
        return;
      }
      waiting = false;
      const now = region();
      const summary = now ? now.dataset.liveSummary : '';
      say(
        `${label} updated (${changes} ${changes === 1 ? 'change' : 'changes'})${summary ? `: ${summary}` : ''}.`,
      );
      changes = 0;
    } catch {
      // A network failure: the next event (or reconnection) tries again.
    } finally {
      running = false;
      if (again) {
        again = false;
        schedule(0);
      }
    }
  }

  // What was waiting applies once the person is done with the open form.
  const retry = () => {
    if (waiting) schedule(400);
  };
  document.addEventListener('toggle', retry, true);
  document.addEventListener('focusout', retry);

  // Resume after what the page was rendered from: a change made before the stream connects still comes.
  const streamUrl = new URL(status.dataset.liveStream, window.location.href);
  if (status.dataset.liveSince) streamUrl.searchParams.set('last_event_id', status.dataset.liveSince);
  const source = new EventSource(streamUrl.pathname + streamUrl.search);
  let connected = false;
  source.addEventListener('open', () => {
    status.dataset.live = 'connected';
    // A reconnection may have missed events: fetch the part once.
    if (connected) schedule(0);
    connected = true;
  });
  const onEvent = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    if (!concerns(event)) return;
    changes += 1;
    schedule(300);
  };
  for (const type of words(status.dataset.liveTypes)) source.addEventListener(type, onEvent);
  // Leaving the page closes the stream at once instead of when the tab is collected.
  window.addEventListener('pagehide', () => source.close());
})();
