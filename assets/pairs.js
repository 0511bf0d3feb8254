/* Linked views of the pairs tab, in the browser: the point hovered (or the points selected) in run A's
 * view is marked in run B's aligned view, and the other way round.
 *
 * Registered as the clientside callbacks procrustesPairs.markHovered and procrustesPairs.markSelected
 * (components/pairs.py). Both views are output figures whose trace 0 holds the same points in the same
 * order, so the explore tab's marking (assets/linked_views.js, procrustes.markHovered/markSelected)
 * serves here too once it is handed the event of whichever view triggered.
 *
 * procrustesPairs.setMorphSpeed sets the morph's play button to the speed chosen: the figure carries the
 * play options of every speed (layout.meta.morph_play, components/figures/pairs.py morph_play), so the
 * frames already in the browser are replayed at another pace without a round trip. */
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
      setMorphSpeed: function (speed, figure) {
        const plays = figure && figure.layout && figure.layout.meta && figure.layout.meta.morph_play;
        const menus = figure && figure.layout && figure.layout.updatemenus;
        if (!plays || !plays[speed] || !menus || !menus.length) {
          return window.dash_clientside.no_update; // no morph drawn yet
        }
        const buttons = menus[0].buttons.map((button, index) =>
          index === 0 ? Object.assign({}, button, {args: [button.args[0], plays[speed]]}) : button);
        const updated = [Object.assign({}, menus[0], {buttons: buttons})].concat(menus.slice(1));
        return Object.assign({}, figure, {layout: Object.assign({}, figure.layout, {updatemenus: updated})});
      },
    },
  });
})();
