// A presenter's keys drive the open tour step: a button of the tour's box names the keys that press
// it in its data-keys attribute (→ and PageDown: Next; ← and PageUp: Back; Escape: Close), which is
// what a clicker sends. Keys typed into a control (a search box, a number, a slider, a menu) stay the
// control's: Escape that closes an open menu must not close the tour too.
(function () {
  const OWN_KEYS = 'input, textarea, select, [contenteditable="true"], [role="slider"], [role="combobox"], ' +
    '[role="listbox"], .dash-dropdown, .dash-dropdown-options';

  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) {
      return;
    }
    if ((event.target instanceof Element && event.target.closest(OWN_KEYS)) ||
        document.querySelector('.dash-dropdown-options')) {
      return;
    }
    const buttons = document.querySelectorAll('.tour:not(.hidden) button[data-keys]');
    const button = Array.from(buttons).find((candidate) => candidate.dataset.keys.split(' ').includes(event.key));
    if (button && !button.disabled) {
      event.preventDefault();  // PageDown would scroll the page as well
      button.click();
    }
  });
})();
