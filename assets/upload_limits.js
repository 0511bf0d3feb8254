/* A file too large for the upload box is refused in the browser, with the parser's own message.
 *
 * dcc.Upload drops a file above its max_size without telling anyone, and a file above the server's
 * request cap would be refused with HTTP 413, which the page does not show either. The box's wrapper
 * carries the limit and the message template (data-max-bytes, data-too-large: datasets.upload's
 * TOO_LARGE, the text the parser gives for a large file); this script fills it in and sets the upload
 * message through Dash (dash_clientside.set_props), before any byte is sent. */
(function () {
  const MEGABYTE = 1024 * 1024;

  function refuse(box, files) {
    const limit = Number(box.dataset.maxBytes);
    const file = Array.from(files || []).find((candidate) => candidate.size > limit);
    if (!file) {
      return;
    }
    const message = box.dataset.tooLarge
      .replace('{size_mb}', (file.size / MEGABYTE).toFixed(1))
      .replace('{limit_mb}', String(Number((limit / MEGABYTE).toPrecision(3))));
    window.dash_clientside.set_props(box.dataset.messageId, {children: message, className: 'message error'});
  }

  document.addEventListener('change', (event) => {
    const box = event.target.closest && event.target.closest('[data-max-bytes]');
    if (box && event.target.files) {
      refuse(box, event.target.files);
    }
  }, true);
  document.addEventListener('drop', (event) => {
    const box = event.target.closest && event.target.closest('[data-max-bytes]');
    if (box && event.dataTransfer) {
      refuse(box, event.dataTransfer.files);
    }
  }, true);
})();
