// Console forms that move money (`data-pending="Selling…"`): once one is sent, its button is
// disabled and says what is running, and a second click or Enter sends nothing, so a double click
// is one request. Without JavaScript the form still works; only this guard is missing.
(() => {
  const BUSY = 'true';

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
  });

  // Back to a page kept in the back/forward cache: its forms can be sent again.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    for (const form of document.querySelectorAll('form[data-sent]')) {
      delete form.dataset.sent;
      form.removeAttribute('aria-busy');
      const status = form.querySelector('[data-pending-status]');
      if (status) status.textContent = '';
      for (const button of form.querySelectorAll('button[type="submit"]')) {
        if (button.dataset.label !== undefined) button.textContent = button.dataset.label;
        button.classList.remove('button-busy');
        button.disabled = false;
      }
    }
  });
})();
