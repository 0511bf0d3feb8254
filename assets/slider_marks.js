/* A click on a slider's mark selects the mark's own value.
 *
 * Dash 4's slider draws its marks (and its thumb) inset by half the thumb's width, as Radix draws the
 * thumb, while Radix reads a pointer linearly over the whole track: a click on a mark lands up to 8 px
 * from the value it names. On the 47-step k slider of a 250 px panel that is most of a step, so the
 * 15 mark gave 16. Our k marks are labelled with their values (components/controls.py K_MARKS), so the
 * label is the value. Marks take no pointer events of their own, hence the search by position; the
 * pointer then never reaches Radix, which would move the thumb elsewhere first. */
(function () {
  function markUnder(slider, event) {
    return Array.from(slider.querySelectorAll(".dash-slider-mark")).find(function (mark) {
      const box = mark.getBoundingClientRect();
      return event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top
        && event.clientY <= box.bottom;
    });
  }

  document.addEventListener("pointerdown", function (event) {
    const slider = event.target instanceof Element ? event.target.closest(".dash-slider-container") : null;
    const mark = slider && slider.id ? markUnder(slider, event) : null;
    const value = mark && mark.textContent.trim() !== "" ? Number(mark.textContent) : NaN;
    if (!Number.isFinite(value)) {
      return;
    }
    event.stopPropagation();
    event.preventDefault();
    // A range slider: the thumb nearest the mark moves to it.
    const values = Array.from(slider.querySelectorAll("[role='slider']"),
                              function (thumb) { return Number(thumb.getAttribute("aria-valuenow")); });
    if (values.length < 2) {
      window.dash_clientside.set_props(slider.id, {value: value});
      return;
    }
    const distances = values.map(function (held) { return Math.abs(held - value); });
    values[distances.indexOf(Math.min.apply(null, distances))] = value;
    window.dash_clientside.set_props(slider.id, {value: values.sort(function (a, b) { return a - b; })});
  }, true);
})();
