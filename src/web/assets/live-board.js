// Live board: follows GET /api/events and asks htmx to re-fetch the list (same URL, same filters,
// list only) when bounties or submissions change. Without JavaScript the board still works; it
// just does not update by itself.
(() => {
  const status = document.getElementById('live-status');
  if (!status || typeof EventSource === 'undefined') return;
  // The event types come from the page (the server's BOARD_EVENT_TYPES), never a list kept here.
  const TYPES = (status.dataset.liveTypes || '').split(',').filter(Boolean);
  if (TYPES.length === 0) return;
  const query = new URLSearchParams(status.dataset.liveQuery || '');
  query.set('types', TYPES.join(','));
  // Resume after what the page was rendered from: a change made before the stream connects still comes.
  if (status.dataset.liveSince) query.set('last_event_id', status.dataset.liveSince);
  let timer = null;
  let pending = 0;

  // Bursts (an approval records several events) become one refresh.
  function refresh() {
    timer = null;
    const list = document.getElementById('board-list');
    if (list && window.htmx) window.htmx.trigger(list, 'board-refresh');
  }

  const source = new EventSource(`/api/events?${query}`);
  // Marks the board as live (tests wait for it before changing anything).
  source.addEventListener('open', () => {
    status.dataset.live = 'connected';
  });
  for (const type of TYPES) {
    source.addEventListener(type, () => {
      pending += 1;
      if (timer === null) timer = setTimeout(refresh, 300);
    });
  }

  // After the new list is in place (outerHTML swap: the old element is gone, so match the request).
  document.body.addEventListener('htmx:afterSettle', (event) => {
    const path = event.detail?.pathInfo?.requestPath;
    if (!path?.includes('fragment=list')) return;
    const heading = document.getElementById('results-heading');
    const count = heading ? heading.textContent.replace(/\s+/g, ' ').trim() : '';
    status.textContent = `Board updated (${pending} ${pending === 1 ? 'change' : 'changes'}): ${count}.`;
    status.dataset.updated = String(Date.now());
    pending = 0;
  });
  // Leaving the page closes the stream at once instead of when the tab is collected.
  window.addEventListener('pagehide', () => source.close());
})();
