"""Locally linear methods from scikit-learn: LLE, MLLE, HLLE and LTSA, with the authors' output scales.

scikit-learn returns unit-norm eigenvectors for all four; the registry entries restore each author's
convention (unit variance for Roweis' LLE and Zhang & Wang's MLLE, unit norm for Zhang's LTSA and
Donoho & Grimes' HLLE; SPEC §2).

References
----------
.. [RS] S. T. Roweis and L. K. Saul, "Nonlinear dimensionality reduction by locally linear
   embedding", Science 290 (2000) 2323-2326.
.. [ZZ] Z. Zhang and H. Zha, "Principal manifolds and nonlinear dimensionality reduction via
   tangent space alignment", SIAM J. Sci. Comput. 26 (2004) 313-338.
.. [ML] Z. Zhang and J. Wang, "MLLE: modified locally linear embedding using multiple weights",
   NIPS 19 (2007) 1593-1600.
.. [DG] D. L. Donoho and C. Grimes, "Hessian eigenmaps: locally linear embedding techniques for
   high-dimensional data", PNAS 100 (2003) 5591-5596.
"""

import warnings

from scipy.sparse.linalg import ArpackNoConvergence
from sklearn.manifold import LocallyLinearEmbedding

from measures import Parameter, ProcrustesLabWarning, SolverError, seed_int

from .errors import ConvergenceError, SampleLimitError, SingularFactorError, format_bytes
from .registry import AlgorithmSpec, register

__all__ = ["DENSE_SOLVER_MAX_SAMPLES", "hessian_neighbors_bound", "locally_linear"]

# The dense eigensolver holds the n x n alignment matrix (8 n² bytes) and LAPACK's workspace of about
# as much again: 1.6 GB at 10 000 points, and minutes of time. Above this size it is refused, both as
# a user's choice and as the retry after an ARPACK failure.
DENSE_SOLVER_MAX_SAMPLES = 10_000

EIGEN_SOLVER = Parameter(
    "eigen_solver", "Eigensolver", "choice", "auto", choices=("auto", "arpack", "dense"),
    help="ARPACK (sparse, fast) or dense LAPACK (slow, robust); 'auto' picks ARPACK for large n and "
         "falls back to dense when ARPACK's factorisation is singular.")


def _dense_bytes(n_samples):
    """Memory of the alignment matrix as the dense eigensolver holds it, with LAPACK's workspace."""
    return 2 * 8 * n_samples**2


def _check_dense_size(method, n_samples, after=""):
    """Refuse the dense eigensolver above :data:`DENSE_SOLVER_MAX_SAMPLES`; ``after`` says what led to it."""
    if n_samples > DENSE_SOLVER_MAX_SAMPLES:
        raise SampleLimitError(
            f"{method}: {after}the dense eigensolver is limited to {DENSE_SOLVER_MAX_SAMPLES} points here (it "
            f"would take about {format_bytes(_dense_bytes(n_samples))} at n = {n_samples}); got {n_samples}. "
            "Raise k, use fewer points, or add a little noise.", n_samples, DENSE_SOLVER_MAX_SAMPLES,
            _dense_bytes(n_samples))


def locally_linear(X, neighbors, n_components, random_state, *, method, eigen_solver="auto", reg=1e-3):
    """Embed X with scikit-learn's ``LocallyLinearEmbedding(method=method)``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods from :func:`measures.nearest_neighbors`; scikit-learn searches again with the
        same k (exact search: the same graph but for ties between equidistant points).
    n_components : int
    random_state : int or numpy.random.Generator
        Seeds ARPACK's start vector.
    method : {"standard", "modified", "hessian", "ltsa"}
    eigen_solver : {"auto", "arpack", "dense"}
    reg : float
        Regularisation of the local Gram matrices (LLE weights; MLLE and HLLE have their own).

    Returns
    -------
    ndarray of shape (n_samples, n_components)

    Raises
    ------
    ConvergenceError
        ARPACK did not converge and the user chose ``"arpack"``.
    SingularFactorError
        ARPACK's shift-invert factor was singular and the user chose ``"arpack"``, or the dense
        retry failed too.
    SampleLimitError
        The dense solver (chosen, or needed as the retry) above :data:`DENSE_SOLVER_MAX_SAMPLES`.

    Notes
    -----
    At small k ARPACK's shift-invert factorisation of the alignment matrix is often exactly
    singular (SPEC §2: "Factor is exactly singular" for LTSA and HLLE), or ARPACK stops before
    converging. Unless the user chose ``"arpack"`` explicitly, the fit is then retried with the
    dense solver and a ``ProcrustesLabWarning`` says so; only if that fails too is it an error.
    """
    n_samples = X.shape[0]
    if eigen_solver == "dense":
        _check_dense_size(method, n_samples)

    def fit(solver):
        return LocallyLinearEmbedding(
            n_neighbors=neighbors.shape[1] - 1, n_components=n_components, method=method, reg=reg,
            eigen_solver=solver, random_state=seed_int(random_state)).fit_transform(X)

    try:
        return fit(eigen_solver)
    except ValueError as e:
        # scikit-learn re-raises ARPACK's RuntimeError as a ValueError naming ARPACK.
        if "ARPACK" not in str(e):
            raise SolverError(f"{method} failed: {e}") from e
        cause = e.__cause__
        failure = ConvergenceError if isinstance(cause, ArpackNoConvergence) else SingularFactorError
        if eigen_solver == "arpack":
            raise failure(f"{method}: ARPACK failed ({cause}); choose eigen_solver='dense' or raise k.") from e
        _check_dense_size(method, n_samples, f"ARPACK failed ({cause}), and ")
        # stacklevel 4: locally_linear <- the registry's fit <- embed <- the caller of embed.
        warnings.warn(f"{method}: ARPACK failed ({cause}); retried with the dense eigensolver.",
                      ProcrustesLabWarning, stacklevel=4)
    try:
        return fit("dense")
    except (ValueError, ArithmeticError) as e:
        raise SingularFactorError(f"{method}: the dense eigensolver failed too ({e}); raise k or add noise "
                                  "to break exact degeneracies.") from e


def hessian_neighbors_bound(n_components):
    """HLLE's bound: k must exceed ``d(d+3)/2`` (d tangent and d(d+1)/2 Hessian coordinates, plus 1)."""
    return n_components * (n_components + 3) // 2


def _hessian_message(n_neighbors, n_components):
    bound = hessian_neighbors_bound(n_components)
    return (f"HLLE needs n_neighbors > d(d+3)/2 = {bound} for d={n_components}; got {n_neighbors}. "
            "Raise k or choose LTSA.")


def _lle(X, neighbors, n_components, random_state, *, eigen_solver, reg):
    return locally_linear(X, neighbors, n_components, random_state, method="standard",
                          eigen_solver=eigen_solver, reg=reg)


def _ltsa(X, neighbors, n_components, random_state, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, random_state, method="ltsa", eigen_solver=eigen_solver)


def _mlle(X, neighbors, n_components, random_state, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, random_state, method="modified", eigen_solver=eigen_solver)


def _hlle(X, neighbors, n_components, random_state, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, random_state, method="hessian", eigen_solver=eigen_solver)


def _register(name, label, fit, output_scale, citation, description, parameters=(EIGEN_SOLVER,), **options):
    """Register one of the four scikit-learn methods: normalized output, the dense retry's memory, 20 000 points."""
    register(AlgorithmSpec(
        name=name, label=label, output="normalized", output_scale=output_scale, parameters=parameters, fit=fit,
        citation=citation, description=description, max_samples=20_000, dense_bytes=_dense_bytes,
        **{"min_neighbors": lambda n_components: n_components + 1, **options}))


_register(
    "lle", "LLE", _lle, "unit_variance", "Roweis & Saul (2000); GR Table 2",
    "Reconstructs each point from its neighbours and keeps those weights in the plane.",
    parameters=(
        Parameter("reg", "Regularisation", "float", 1e-3, low=1e-8, high=10.0, log=True,
                  help="Tikhonov term added to each local Gram matrix, relative to its trace."),
        EIGEN_SOLVER,
    ),
)
_register(
    "mlle", "MLLE", _mlle, "unit_variance", "Zhang & Wang (2007); ML Figs. 3-5",
    "LLE with several linearly independent weight vectors per point, which keeps the local geometry where "
    "LLE's single regularised weights lose it.",
)
_register(
    "hlle", "HLLE", _hlle, "unit_norm", "Donoho & Grimes (2003); PN Figs. 7-9",
    "Hessian eigenmaps: the functions with zero local Hessian on the tangent spaces, which are the isometric "
    "coordinates up to an affine map.",
    min_neighbors=lambda n_components: hessian_neighbors_bound(n_components) + 1,
    too_few_neighbors=_hessian_message,
)
_register(
    "ltsa", "LTSA", _ltsa, "unit_norm", "Zhang & Zha (2004); GR Table 2",
    "Aligns local tangent-space (PCA) coordinates into one global chart.",
)
