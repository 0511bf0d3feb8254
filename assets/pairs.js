/* Linked views of the pairs tab, in the browser: the point hovered (or the points selected) in run A's
 * view is marked in run B's aligned view, and the other way round.
 *
 * Registered as the clientside callbacks procrustesPairs.markHovered and procrustesPairs.markSelected
 * (components/pairs.py). Both views are output figures whose trace 0 holds the same points in the same
 * order, so the explore tab's marking (assets/linked_views.js, procrustes.markHovered/markSelected)
 * serves here too once it is handed the event of whichever view triggered. */
(function () {
  const A_GRAPH = 'pair-a-graph'; // components/ids.py PAIR_A_GRAPH

  function triggeredEvent(aEvent, bEvent) {
    return window.dash_clientside.callback_context.triggered_id === A_GRAPH ? aEvent : bEvent;
  }

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    procrustesPairs: {
      markHovered: function (aHover, bHover, aFigure, bFigure) {
        const hover = triggeredEvent(aHover, bHover);
        return window.dash_clientside.procrustes.markHovered(hover, hover, aFigure, bFigure);
      },
      markSelected: function (aSelection, bSelection, aFigure, bFigure) {
        const selection = triggeredEvent(aSelection, bSelection);
        return window.dash_clientside.procrustes.markSelected(selection, selection, aFigure, bFigure);
      },
    },
  });
})();
