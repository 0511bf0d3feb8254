"""scikit-learn estimators for the Procrustes embedding algorithms: GP and PSA.

:class:`GreedyProcrustes` and :class:`ProcrustesSubspaceAlignment` wrap :func:`algorithms.embed` with
scikit-learn's estimator protocol (``fit``, ``fit_transform``, ``embedding_``, ``get_params``). As in
scikit-learn, ``__init__`` only stores its keyword arguments and ``fit`` checks them; the allowed
ranges are the algorithm's registry declarations (``algorithms.spec(name).parameters``), checked by
:func:`measures.validate_parameters` inside :func:`algorithms.embed`, so a range is written once.
Like :class:`sklearn.manifold.TSNE` they are transductive: there is no ``transform`` for new points.
"""

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import validate_data

from .embedding import embed
from .psa import ALIGNMENT_THRESHOLD, ANNEALING_STEPS, COOLING, INITIALIZATION, OUTER_ITERATIONS
from .refine import REFINE_ITERATIONS, REFINE_METHOD
from .registry import spec

__all__ = ["GreedyProcrustes", "ProcrustesSubspaceAlignment"]


class _ProcrustesEmbedding(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Shared ``fit`` of the estimators: validate X, then run the registered algorithm ``_algorithm``."""

    _algorithm = None

    def fit(self, X, y=None):
        """Compute the embedding of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        self

        Raises
        ------
        algorithms.EmbeddingError
            (a ``ValueError``) for a parameter out of its declared range, ``n_neighbors`` not in
            ``[n_components, n_samples - 1]``, or a disconnected neighbour graph.
        """
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        own = {parameter.name: getattr(self, parameter.name) for parameter in spec(self._algorithm).parameters}
        self.embedding_ = embed(self._algorithm, X, n_neighbors=self.n_neighbors, n_components=self.n_components,
                                random_state=self.random_state, **own)
        self._n_features_out = self.embedding_.shape[1]
        return self

    def fit_transform(self, X, y=None):
        """Compute the embedding of X and return it (``embedding_``), shape (n_samples, n_components)."""
        return self.fit(X).embedding_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags


class GreedyProcrustes(_ProcrustesEmbedding):
    """Greedy Procrustes embedding followed by Procrustes refinement (GR §4.1, §4.4).

    Parameters
    ----------
    n_neighbors : int, default=12
        k, neighbours other than the point (GR's figures use 12).
    n_components : int, default=2
        Output dimension d; ``n_neighbors >= n_components``.
    refine_iterations : int, default=20
        Refinement sweeps after the greedy pass, in [0, 1000].
    refine_method : {"exact", "iterative"}, default="exact"
        Y-step of the refinement (GR Eq. 11 by sparse solve, or Eq. 13).
    random_state : int or numpy.random.Generator, default=0
        Picks the first neighbourhood. ``None`` (unseeded) is refused.

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
        The embedding, at the input's scale.
    n_features_in_ : int

    See Also
    --------
    algorithms.gp.gp : the function behind it.

    Examples
    --------
    >>> import numpy as np
    >>> from measures import procrustes
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.uniform(size=(300, 2)) * [4.0, 1.0]) @ np.linalg.qr(rng.normal(size=(5, 2)))[0].T
    >>> Y = GreedyProcrustes(n_neighbors=8).fit_transform(X)
    >>> procrustes(X, Y, 8) < 1e-10
    True
    """

    _algorithm = "gp"

    def __init__(self, *, n_neighbors: int = 12, n_components: int = 2,
                 refine_iterations: int = REFINE_ITERATIONS.default, refine_method: str = REFINE_METHOD.default,
                 random_state: int | np.random.Generator = 0) -> None:
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.refine_iterations = refine_iterations
        self.refine_method = refine_method
        self.random_state = random_state


class ProcrustesSubspaceAlignment(_ProcrustesEmbedding):
    """Procrustes subspaces alignment (PSA, GR §4.2-4.4): aligned local PCA planes, one solve, refinement.

    Parameters
    ----------
    n_neighbors : int, default=12
    n_components : int, default=2
    initialization : {"spectral", "gp", "random"}, default="spectral"
        Start of the alignment (:data:`algorithms.psa.INITIALIZATION`).
    annealing_steps : int, default=100
        Simulated-annealing sweeps per run, in [0, 100000].
    cooling : float, default=0.95
        Geometric cooling factor per sweep, in [0.5, 0.9999].
    outer_iterations : int, default=3
        Annealing runs (re-annealing the points outside the largest aligned cluster), in [1, 50].
    alignment_threshold : float, default=0.5
        ``||P_iO_i - P_jO_j||_F`` below which neighbours count as aligned, in [0.01, 2].
    refine_iterations : int, default=20
    refine_method : {"exact", "iterative"}, default="exact"
    random_state : int or numpy.random.Generator, default=0

    Attributes
    ----------
    embedding_ : ndarray of shape (n_samples, n_components)
    n_features_in_ : int

    See Also
    --------
    algorithms.psa.psa : the function behind it.

    Examples
    --------
    A strip rolled onto a third of a cylinder is unrolled as well as its own chart does it:

    >>> import numpy as np
    >>> from measures import procrustes
    >>> chart = np.random.default_rng(1).uniform(size=(400, 2)) * [3.0, 1.0]
    >>> X = np.c_[np.cos(chart[:, 0]), np.sin(chart[:, 0]), chart[:, 1]]
    >>> psa = ProcrustesSubspaceAlignment(n_neighbors=10).fit(X)
    >>> psa.embedding_.shape
    (400, 2)
    >>> bool(procrustes(X, psa.embedding_, 10) <= procrustes(X, chart, 10))
    True
    """

    _algorithm = "psa"

    def __init__(self, *, n_neighbors: int = 12, n_components: int = 2, initialization: str = INITIALIZATION.default,
                 annealing_steps: int = ANNEALING_STEPS.default, cooling: float = COOLING.default,
                 outer_iterations: int = OUTER_ITERATIONS.default,
                 alignment_threshold: float = ALIGNMENT_THRESHOLD.default,
                 refine_iterations: int = REFINE_ITERATIONS.default, refine_method: str = REFINE_METHOD.default,
                 random_state: int | np.random.Generator = 0) -> None:
        self.n_neighbors = n_neighbors
        self.n_components = n_components
        self.initialization = initialization
        self.annealing_steps = annealing_steps
        self.cooling = cooling
        self.outer_iterations = outer_iterations
        self.alignment_threshold = alignment_threshold
        self.refine_iterations = refine_iterations
        self.refine_method = refine_method
        self.random_state = random_state
