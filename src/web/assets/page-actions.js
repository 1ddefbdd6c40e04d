// Small enhancements of the public pages' forms; every form works without JavaScript.
// - `<button data-copy="ID" hidden>`: shown (also when a live update brings it), and copies the text of the field #ID (a key shown
//   once). Without JavaScript the field is still there to select and copy by hand.
// - `<form data-pending="Claiming…">`: once sent, its button says so and is disabled; a second
//   click or Enter sends nothing, so a double click is one request.
(() => {
  const status = (button, text) => {
    const out = button.parentElement?.querySelector('.copy-status');
    if (out) out.textContent = text;
  };

  // Delegated, and shown again when a live update (console-live.js) brings the buttons anew.
  const reveal = () => {
    if (!navigator.clipboard) return;
    for (const button of document.querySelectorAll('button[data-copy][hidden]')) button.hidden = false;
  };
  reveal();
  new MutationObserver(reveal).observe(document.body, { childList: true, subtree: true });

  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    if (!field || !navigator.clipboard) return;
    try {
      await navigator.clipboard.writeText(field.value ?? field.textContent ?? '');
      status(button, 'Copied.');
    } catch {
      // Permission refused: select it, so that one keystroke copies it.
      field.focus();
      if (typeof field.select === 'function') field.select();
      else window.getSelection()?.selectAllChildren(field);
      status(button, 'Copying was not allowed here: it is selected, press Ctrl+C (⌘C on a Mac).');
    }
  });

  document.addEventListener('submit', (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-pending')) return;
    if (form.dataset.sent === 'true') {
      event.preventDefault();
      return;
    }
    form.dataset.sent = 'true';
    form.setAttribute('aria-busy', 'true');
    for (const button of form.querySelectorAll('button[type="submit"]')) {
      button.dataset.label = button.textContent;
      button.textContent = form.dataset.pending;
      button.classList.add('button-pending');
      // After this event, so that the form is still sent with its button's value.
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
      for (const button of form.querySelectorAll('button[type="submit"]')) {
        if (button.dataset.label !== undefined) button.textContent = button.dataset.label;
        button.classList.remove('button-pending');
        button.disabled = false;
      }
    }
  });
})();
