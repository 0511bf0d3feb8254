"""What the tour modules write their steps with (each paper's tour is its own module: :mod:`lab.tours.presets`).

:func:`run_request` builds a validated run request, :func:`step_state` the view state that shows it, :func:`make_step`
a step that its state opens; :func:`increasing` and :func:`best_k` are the predicates that several
tours' claims and derived values share. Private to :mod:`lab.tours`: only its tour modules import them.
No Dash here.
"""

import dataclasses
import itertools

from ..compute.runs import RunRequest
from ..view.state import CompareChoice, DisplayChoice, NormalizationChoice, SweepChoice, ViewState
from .steps import Step


def run_request(dataset, algorithm, k, *, n=None, random_state=0, noise=0.0, rescale="authors", post_refinement=0,
         **params):
    """A validated run request; ``params`` are the data set's own parameters."""
    return RunRequest.create(dataset, algorithm, n=n, noise=noise, random_state=random_state,
                             dataset_params=params or None, n_neighbors=k, post_refinement=post_refinement,
                             rescale=rescale)


def step_state(request, *, color="normalized", view="3d", tab="explore", sweep=None, compare=None, normalization=None):
    """The validated view state showing ``request`` in the explore views, every other control named."""
    return ViewState(data=request.data, method=request.method, display=DisplayChoice(color=color, input_view=view),
                     sweep=SweepChoice(*sweep) if sweep else SweepChoice(),
                     compare=CompareChoice(compare) if compare else CompareChoice(),
                     normalization=NormalizationChoice(*normalization) if normalization else NormalizationChoice(),
                     tab=tab).validated()


def make_step(name, title, state, text, claims, panels, **options):
    """A step whose state opens it (``state.tour`` is its name)."""
    return Step(name, title, dataclasses.replace(state, tour=name), text, tuple(claims), tuple(panels), **options)


def increasing(values, keys, measure):
    """Whether ``measure`` increases strictly along the panels ``keys``."""
    numbers = [values[key][measure] for key in keys]
    return all(low < high for low, high in itertools.pairwise(numbers))


def best_k(values, keys, measure):
    """k of the panel (among ``keys``) with the lowest ``measure``."""
    return min(keys, key=lambda key: values[key][measure]).rsplit("k", 1)[1]
