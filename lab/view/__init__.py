"""What a page shows: the view state and its conversions to links, files and notebooks (no Dash).

- :mod:`lab.view.state`: :class:`~lab.view.state.ViewState`, every control of every tab, validated;
- :mod:`lab.view.links` and :mod:`lab.view.exports`: the view state as a link and as files;
- :mod:`lab.view.notebook`: a run shown in a notebook.

It imports ``lab.compute`` and ``lab.store``, never the tours (they register their steps, see
:func:`lab.view.state.register_tour_steps`).
"""
