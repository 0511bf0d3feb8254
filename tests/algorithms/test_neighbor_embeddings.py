"""Tests of ``algorithms/neighbor_embeddings.py`` (UMAP, PaCMAP) and of the "neighbour_embedding" output
convention: each equals its library's call with the seeded random state (UMAP on exactly our kNN graph),
a seed changes the output and the same seed reproduces it in another process, neighbourhoods are kept
(trustworthiness), UMAP lays out a disconnected graph, and the registry says which measures to read.

numba compiles both libraries' kernels on first use (~35 s each in a fresh process, then cached next to
the package), so these tests use small inputs and few iterations.
"""

import os
import subprocess
import sys

import numpy as np
import pytest
from sklearn.manifold import trustworthiness

import algorithms
import measures
from algorithms.scaling import fix_signs

# With tests/algorithms/test_common.py on one pytest-xdist worker (pytest.ini's --dist loadgroup): numba compiles
# UMAP's kernels once per process.
pytestmark = pytest.mark.xdist_group("umap")

STOCHASTIC = ["tsne", "tsne_sklearn", "umap", "pacmap"]
SHORT = {"tsne": {"max_iter": 300}, "tsne_sklearn": {"max_iter": 300}, "umap": {"n_epochs": 100},
         "pacmap": {"num_iters": 250}}


def test_umap_equals_umap_learn_on_our_knn_graph(small_roll):
    import umap

    neighbors = measures.nearest_neighbors(small_roll.X, 8)
    distances = np.linalg.norm(small_roll.X[neighbors] - small_roll.X[:, None], axis=2)
    reference = umap.UMAP(n_neighbors=9, min_dist=0.3, n_epochs=100, random_state=measures.seed_int(3),
                          precomputed_knn=(neighbors, distances, None)).fit_transform(small_roll.X)
    Y = algorithms.embed("umap", small_roll.X, n_neighbors=8, random_state=3, min_dist=0.3, n_epochs=100)
    np.testing.assert_array_equal(Y, fix_signs(np.asarray(reference, dtype=np.float64)))
    # The graph it was given is the measures' graph: passing it explicitly changes nothing.
    np.testing.assert_array_equal(algorithms.embed("umap", small_roll.X, n_neighbors=8, random_state=3, min_dist=0.3,
                                                   n_epochs=100, neighbors=neighbors), Y)


def test_pacmap_equals_the_package_with_its_phases(small_roll):
    import pacmap

    reference = pacmap.PaCMAP(n_neighbors=8, MN_ratio=1.0, FP_ratio=3.0, num_iters=(100, 100, 100),
                              random_state=measures.seed_int(5)).fit_transform(small_roll.X, init="pca")
    Y = algorithms.embed("pacmap", small_roll.X, n_neighbors=8, random_state=5, MN_ratio=1.0, FP_ratio=3.0,
                         num_iters=300)
    np.testing.assert_array_equal(Y, fix_signs(np.asarray(reference, dtype=np.float64)))


@pytest.mark.parametrize("name", ["tsne", "umap", "pacmap"])
def test_another_seed_gives_another_layout_of_the_same_quality(name, small_roll):
    # (scikit-learn's t-SNE from its PCA start draws nothing: the seed matters only to a random start.)
    first = algorithms.embed(name, small_roll.X, n_neighbors=8, random_state=1, **SHORT[name])
    second = algorithms.embed(name, small_roll.X, n_neighbors=8, random_state=2, **SHORT[name])
    assert not np.allclose(first, second)
    scores = [trustworthiness(small_roll.X, Y, n_neighbors=8) for Y in (first, second)]
    assert min(scores) > 0.9 and abs(scores[0] - scores[1]) < 0.03


@pytest.mark.slow
def test_same_seed_gives_the_same_layout_in_a_fresh_process(small_roll):
    # Determinism across processes (numba's compiled code loaded from its cache, a new thread pool).
    code = ("import sys, numpy as np, algorithms, datasets; X = datasets.load('swissroll', 400, random_state=0).X; "
            "sys.stdout.buffer.write(np.concatenate([algorithms.embed(name, X, n_neighbors=8, random_state=7, **short)"
            f".ravel() for name, short in {SHORT!r}.items()]).tobytes())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, timeout=600)
    here = np.concatenate([algorithms.embed(name, small_roll.X, n_neighbors=8, random_state=7, **SHORT[name]).ravel()
                           for name in SHORT])
    np.testing.assert_array_equal(np.frombuffer(done.stdout, dtype=np.float64), here)


@pytest.mark.slow
def test_a_process_that_ran_them_forks_jobs_that_run_them_again():
    # The page's jobs are forked from the serving process. Under numba's GNU OpenMP layer a child forked
    # after one UMAP run was killed at its first parallel loop ("Terminating: fork() called from a process
    # already using GNU OpenMP"): the browser suite lost its UMAP job that way.
    code = ("import os, sys, numpy as np, algorithms, datasets; X = datasets.load('swissroll', 300, random_state=0).X\n"
            "run = lambda name: algorithms.embed(name, X, n_neighbors=8, random_state=3, **SHORT[name])\n"
            "first = {name: run(name) for name in SHORT}\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    os._exit(0 if all(np.array_equal(run(name), first[name]) for name in SHORT) else 3)\n"
            "sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    short = {name: SHORT[name] for name in ("umap", "pacmap")}
    own = {key: value for key, value in os.environ.items() if key != "NUMBA_THREADING_LAYER"}  # the algorithms' own
    done = subprocess.run([sys.executable, "-c", f"SHORT = {short!r}\n" + code], capture_output=True, timeout=600,
                          env=own)
    assert done.returncode == 0, done.stderr.decode()[-2000:]


def test_umap_lays_out_a_disconnected_graph(two_clusters):
    # UMAP needs no connected graph (requires_connected=False): each component gets its own place.
    Y = algorithms.embed("umap", two_clusters, n_neighbors=5, n_epochs=100)
    first, second = Y[:60], Y[60:]
    gap = np.linalg.norm(first.mean(axis=0) - second.mean(axis=0))
    assert gap > 2 * max(first.std(axis=0).max(), second.std(axis=0).max())


def test_neighbor_embeddings_are_read_by_scale_free_measures():
    read = algorithms.MEASURES_TO_READ
    assert set(read) == set(algorithms.OUTPUT_SCALES)
    assert all(set(names) <= set(measures.available()) for names in read.values())
    assert "normalized" not in read["neighbour_embedding"]  # R_N compares scales these outputs do not have
    assert {"conformal", "asim", "trustworthiness"} <= set(read["neighbour_embedding"])
    for name in STOCHASTIC:
        entry = algorithms.spec(name)
        assert (entry.output, entry.output_scale) == ("neighbour_embedding", "neighbour_embedding")


def test_a_rescaled_umap_output_moves_r_n_but_not_r_c(small_roll):
    # Why R_N is not read: one global factor, which changes no neighbourhood's shape, moves it.
    Y = algorithms.embed("umap", small_roll.X, n_neighbors=8, n_epochs=100)
    scores = {factor: [measures.procrustes(small_roll.X, factor * Y, 8, variant=v) for v in ("normalized",
                                                                                                "conformal")]
              for factor in (1.0, 3.0)}
    assert abs(scores[3.0][0] - scores[1.0][0]) > 0.2 * scores[1.0][0]
    assert scores[3.0][1] == pytest.approx(scores[1.0][1], rel=1e-9)
