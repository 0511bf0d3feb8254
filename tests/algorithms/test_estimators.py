"""Tests of ``algorithms/procrustes_estimators.py``: the GP and PSA estimators follow scikit-learn's
protocol (its ``check_estimator``, less three checks that do not apply), validate in ``fit`` with the
registry's declarations, and give exactly what :func:`algorithms.embed` gives.

The module is imported inside the tests, not at collection (see ``test_refine.py``'s docstring).
"""

import importlib
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import check_estimator

import algorithms
import measures

ESTIMATORS = ["GreedyProcrustes", "ProcrustesSubspaceAlignment"]

# Checks that cannot pass by design, with the reason (scikit-learn's ``expected_failed_checks``).
NOT_APPLICABLE = {
    "check_positive_only_tag_during_fit": "its data repeat rows; algorithms.embed refuses duplicate points "
                                          "(DuplicatePointsError), as coincident points have no local geometry",
    "check_pipeline_consistency": "two separated blobs: the kNN graph is disconnected and a Procrustes "
                                  "embedding cannot place its parts (DisconnectedGraphError)",
    "check_estimators_pickle": "two separated blobs: the kNN graph is disconnected (DisconnectedGraphError)",
}


def _estimator(name, **params):
    return getattr(importlib.import_module("algorithms.procrustes_estimators"), name)(**params)


# Shorter runs for the protocol checks, which fit dozens of times and look at no embedding's quality (PSA's
# 100 annealing steps and 20 refinement sweeps took 4 s of the checks; these 1 s, with the same checks passing).
PROTOCOL_PARAMETERS = {"ProcrustesSubspaceAlignment": {"annealing_steps": 10, "refine_iterations": 2}}


@pytest.mark.parametrize("name", ESTIMATORS)
def test_passes_scikit_learns_estimator_checks(name):
    # k = 4: the checks fit data sets of 10 to 30 points.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", measures.ProcrustesLabWarning)
        results = check_estimator(_estimator(name, n_neighbors=4, **PROTOCOL_PARAMETERS.get(name, {})),
                                  expected_failed_checks=NOT_APPLICABLE, on_fail=None, on_skip=None)
    statuses = {result["check_name"]: result["status"] for result in results}
    failed = {check: status for check, status in statuses.items() if status == "failed"}
    assert not failed, failed
    assert {statuses[check] for check in NOT_APPLICABLE} == {"xfail"}
    assert sum(status == "passed" for status in statuses.values()) >= 30


@pytest.mark.parametrize(("name", "algorithm"), zip(ESTIMATORS, ["gp", "psa"]))
def test_fit_transform_is_the_registered_algorithms_embedding(name, algorithm, small_roll):
    estimator = _estimator(name, n_neighbors=8, random_state=3, refine_iterations=4)
    Y = estimator.fit_transform(small_roll.X)
    np.testing.assert_array_equal(Y, algorithms.embed(algorithm, small_roll.X, n_neighbors=8, random_state=3,
                                                      refine_iterations=4))
    assert estimator.embedding_ is Y
    assert estimator.n_features_in_ == 3
    assert list(estimator.get_feature_names_out()) == [f"{name.lower()}0", f"{name.lower()}1"]


@pytest.mark.parametrize("name", ESTIMATORS)
def test_init_only_stores_and_fit_checks_against_the_registry(name, small_roll):
    estimator = _estimator(name, refine_iterations=-5, refine_method="cholesky")
    assert estimator.get_params()["refine_iterations"] == -5  # stored unchanged, not checked yet
    algorithm = {"GreedyProcrustes": "gp", "ProcrustesSubspaceAlignment": "psa"}[name]
    with pytest.raises(algorithms.EmbeddingError, match=rf"{algorithm}: parameter 'refine_iterations' must lie in "
                                                        r"\[0, 1000\]; got -5\."):
        estimator.fit(small_roll.X)
    with pytest.raises(ValueError, match=r"n_neighbors must be an integer in \[2, 399\]; got 400"):
        clone(estimator).set_params(refine_iterations=1, refine_method="exact", n_neighbors=400).fit(small_roll.X)


@pytest.mark.parametrize("name", ESTIMATORS)
def test_defaults_are_the_registry_defaults(name):
    estimator = _estimator(name)
    algorithm = {"GreedyProcrustes": "gp", "ProcrustesSubspaceAlignment": "psa"}[name]
    params = estimator.get_params()
    for parameter in algorithms.spec(algorithm).parameters:
        assert params[parameter.name] == parameter.default
    assert (params["n_neighbors"], params["n_components"], params["random_state"]) == (12, 2, 0)


def test_random_state_seeds_the_run(small_roll):
    first = _estimator("ProcrustesSubspaceAlignment", n_neighbors=8, initialization="random", annealing_steps=10,
                       refine_iterations=1, random_state=1).fit_transform(small_roll.X)
    again = _estimator("ProcrustesSubspaceAlignment", n_neighbors=8, initialization="random", annealing_steps=10,
                       refine_iterations=1, random_state=np.random.default_rng(1)).fit_transform(small_roll.X)
    np.testing.assert_array_equal(first, again)
    with pytest.raises(algorithms.EmbeddingError, match="random_state must be a non-negative int"):
        _estimator("GreedyProcrustes", random_state=None).fit(small_roll.X)
