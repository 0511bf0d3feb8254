"""Locally linear methods from scikit-learn: LLE and LTSA, with the authors' output scales.

scikit-learn returns unit-norm eigenvectors for both; the registry entries restore each author's
convention (unit variance for Roweis' LLE, unit norm for Zhang's LTSA; SPEC §2).

References
----------
.. [RS] S. T. Roweis and L. K. Saul, "Nonlinear dimensionality reduction by locally linear
   embedding", Science 290 (2000) 2323-2326.
.. [ZZ] Z. Zhang and H. Zha, "Principal manifolds and nonlinear dimensionality reduction via
   tangent space alignment", SIAM J. Sci. Comput. 26 (2004) 313-338.
"""

import warnings

from sklearn.manifold import LocallyLinearEmbedding

from measures import Parameter, ProcrustesLabWarning, SolverError, seed_int

from .registry import AlgorithmSpec, register

__all__ = ["locally_linear"]

EIGEN_SOLVER = Parameter(
    "eigen_solver", "Eigensolver", "choice", "auto", choices=("auto", "arpack", "dense"),
    help="ARPACK (sparse, fast) or dense LAPACK (slow, robust); 'auto' picks ARPACK for large n and "
         "falls back to dense when ARPACK's factorisation is singular.")


def locally_linear(X, neighbors, n_components, seed, *, method, eigen_solver="auto", reg=1e-3):
    """Embed X with scikit-learn's ``LocallyLinearEmbedding(method=method)``.

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    neighbors : ndarray of shape (n_samples, k + 1)
        Neighbourhoods from :func:`measures.nearest_neighbors`; scikit-learn searches again with the
        same k (exact search: the same graph but for ties between equidistant points).
    n_components : int
    seed : int or numpy.random.Generator
        Seeds ARPACK's start vector.
    method : {"standard", "ltsa"}
    eigen_solver : {"auto", "arpack", "dense"}
    reg : float
        Regularisation of the local Gram matrices (LLE weights).

    Returns
    -------
    ndarray of shape (n_samples, n_components)

    Raises
    ------
    SolverError
        If the dense solver fails too.

    Notes
    -----
    At small k ARPACK's shift-invert factorisation of the alignment matrix is often exactly
    singular (SPEC §2). Unless the user chose ``"arpack"`` explicitly, the fit is then retried with
    the dense solver and a ``ProcrustesLabWarning`` says so.
    """
    def fit(solver):
        return LocallyLinearEmbedding(
            n_neighbors=neighbors.shape[1] - 1, n_components=n_components, method=method, reg=reg,
            eigen_solver=solver, random_state=seed_int(seed)).fit_transform(X)

    try:
        return fit(eigen_solver)
    except ValueError as e:
        # scikit-learn re-raises ARPACK's RuntimeError as a ValueError naming ARPACK.
        if "ARPACK" not in str(e):
            raise SolverError(f"{method} failed: {e}") from e
        if eigen_solver == "arpack":
            raise SolverError(f"{method}: ARPACK failed ({e.__cause__}); choose eigen_solver='dense' "
                              "or raise k.") from e
        # stacklevel 4: locally_linear <- the registry's fit <- embed <- the caller of embed.
        warnings.warn(f"{method}: ARPACK failed ({e.__cause__}); retried with the dense eigensolver.",
                      ProcrustesLabWarning, stacklevel=4)
    try:
        return fit("dense")
    except (ValueError, ArithmeticError) as e:
        raise SolverError(f"{method}: the dense eigensolver failed too ({e}); raise k or add noise "
                          "to break exact degeneracies.") from e


def _lle(X, neighbors, n_components, seed, *, eigen_solver, reg):
    return locally_linear(X, neighbors, n_components, seed, method="standard",
                          eigen_solver=eigen_solver, reg=reg)


def _ltsa(X, neighbors, n_components, seed, *, eigen_solver):
    return locally_linear(X, neighbors, n_components, seed, method="ltsa", eigen_solver=eigen_solver)


register(AlgorithmSpec(
    name="lle",
    label="LLE",
    output="normalized",
    output_scale="unit_variance",
    parameters=(
        Parameter("reg", "Regularisation", "float", 1e-3, low=1e-8, high=10.0, log=True,
                  help="Tikhonov term added to each local Gram matrix, relative to its trace."),
        EIGEN_SOLVER,
    ),
    fit=_lle,
    citation="Roweis & Saul (2000); GR Table 2",
    description="Reconstructs each point from its neighbours and keeps those weights in the plane.",
    min_neighbors=lambda n_components: n_components + 1,
    max_samples=20_000,
))

register(AlgorithmSpec(
    name="ltsa",
    label="LTSA",
    output="normalized",
    output_scale="unit_norm",
    parameters=(EIGEN_SOLVER,),
    fit=_ltsa,
    citation="Zhang & Zha (2004); GR Table 2",
    description="Aligns local tangent-space (PCA) coordinates into one global chart.",
    min_neighbors=lambda n_components: n_components + 1,
    max_samples=20_000,
))
