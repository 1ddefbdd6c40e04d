// Console forms. Those that move money or cannot be undone sit in a <details> confirmation
// (`_confirm.eta`): nothing is sent until its "Confirm: …" button is pressed, and Cancel (or
// Escape) closes it, sending nothing. A form with `data-pending="Selling…"`, once sent, has its
// button disabled and saying what is running; a second click or Enter sends nothing, so a double
// click is one request. Without JavaScript the forms still work: the summary closes a
// confirmation, and only the double-click guard is missing.
(() => {
  const BUSY = 'true';
  document.documentElement.classList.add('js-console');

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-pending')) return;
    if (form.dataset.sent === BUSY) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = BUSY;
    form.setAttribute('aria-busy', 'true');
    const status = form.querySelector('[data-pending-status]');
    if (status) status.textContent = form.dataset.pending;
    for (const button of form.querySelectorAll('button[type="submit"]')) {
      button.dataset.label = button.textContent;
      button.textContent = form.dataset.pending;
      button.classList.add('button-busy');
      // After this event: the form is being sent with its fields as they are.
      setTimeout(() => {
        button.disabled = true;
      }, 0);
    }
    // Nothing to cancel any more once it is on its way.
    for (const cancel of form.querySelectorAll('[data-confirm-cancel]')) cancel.disabled = true;
  });

  /** Closes a confirmation (nothing is sent) and gives the focus back to what opened it. */
  function dismiss(details) {
    const form = details.querySelector('form');
    if (form && form.dataset.sent === BUSY) return;
    details.open = false;
    const summary = details.querySelector('summary');
    if (summary) summary.focus();
  }

  document.addEventListener('click', (event) => {
    const cancel = event.target instanceof Element ? event.target.closest('[data-confirm-cancel]') : null;
    if (!cancel) return;
    event.preventDefault();
    const details = cancel.closest('details');
    if (details) dismiss(details);
  });

  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !(event.target instanceof Element)) return;
    const details = event.target.closest('details.confirm[open], details.sell-all[open]');
    if (details) dismiss(details);
  });

  // A link to a closed confirmation's summary ("Buy tokens" under a refused bounty) opens it.
  function reveal() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    const details = target && target.tagName === 'SUMMARY' ? target.parentElement : null;
    if (!(details instanceof HTMLDetailsElement) || details.open) return;
    details.open = true;
    const field = details.querySelector('input:not([type="hidden"]), textarea, select');
    (field || target).focus();
  }
  window.addEventListener('hashchange', reveal);
  reveal();

  // Back to a page kept in the back/forward cache: its forms can be sent again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    for (const form of document.querySelectorAll('form[data-sent]')) {
      delete form.dataset.sent;
      form.removeAttribute('aria-busy');
      const status = form.querySelector('[data-pending-status]');
      if (status) status.textContent = '';
      for (const button of form.querySelectorAll('button')) {
        if (button.dataset.label !== undefined) button.textContent = button.dataset.label;
        button.classList.remove('button-busy');
        button.disabled = false;
      }
    }
  });
})();
