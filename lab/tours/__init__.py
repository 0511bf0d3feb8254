"""The papers' tours, the top room of ``lab``: built of view states (``lab.view``) and runs (``lab.compute``).

- :mod:`lab.tours.steps`: the :class:`~lab.tours.steps.Step`, :class:`~lab.tours.steps.Claim`,
  :class:`~lab.tours.steps.Panel` and :class:`~lab.tours.steps.Tour` classes, and
  :class:`~lab.tours.steps.StepRequest`, a step's runs as one request of :func:`lab.compute.study.compute`;
- :mod:`lab.tours.presets`: the tours in their order and their index, each figure or table of the source
  papers a step (importing it registers the steps with the view state, :func:`lab.view.state.register_tour_steps`);
- one module a paper's tour: :mod:`lab.tours.goldberg_ritov`, :mod:`lab.tours.nieqa`,
  :mod:`lab.tours.price_of_normalization`, :mod:`lab.tours.mlle` and :mod:`lab.tours.lecture`, written with
  the helpers of :mod:`lab.tours.authoring`;
- :mod:`lab.tours.prepare`: ``python -m lab.tours prepare``, the steps computed before a lecture.
"""
