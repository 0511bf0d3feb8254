"""Tests of ``measures/errors.py``: one hierarchy, each error also a builtin callers can catch."""

import pytest

from measures import (
    DatasetError,
    DisconnectedGraphError,
    EmbeddingError,
    MeasureError,
    ProcrustesLabError,
    ProcrustesLabWarning,
    SeedError,
    SolverError,
)


@pytest.mark.parametrize(
    "error, builtins",
    [
        (MeasureError, (ValueError,)),
        (DatasetError, (ValueError,)),
        (EmbeddingError, (ValueError,)),
        (DisconnectedGraphError, (EmbeddingError, ValueError)),
        (SolverError, (EmbeddingError, RuntimeError)),
        (SeedError, (ValueError,)),
    ],
)
def test_every_error_shares_the_base_and_a_builtin(error, builtins):
    assert issubclass(error, ProcrustesLabError)
    for builtin in builtins:
        assert issubclass(error, builtin)


def test_disconnected_graph_error_keeps_the_component_count():
    with pytest.raises(ValueError, match="3 components") as caught:
        raise DisconnectedGraphError("the kNN graph has 3 components; raise n_neighbors", n_components=3)
    assert caught.value.n_components == 3


def test_warning_category_is_a_user_warning():
    assert issubclass(ProcrustesLabWarning, UserWarning)
