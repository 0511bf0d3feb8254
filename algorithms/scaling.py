"""Output-scale conventions, the "rescale output" options, and the deterministic sign rule applied to
every embedding (SPEC §2)."""

import numpy as np

from measures import local_procrustes

from .registry import OUTPUT_SCALES, RESCALE_OPTIONS

__all__ = ["apply_output_scale", "best_global_scale", "fix_signs", "rescale_output"]

# Conventions that normalize each column; every other one is the method's own coordinates, kept.
_NORMALIZING = ("unit_variance", "unit_norm")


def apply_output_scale(Y, convention):
    """Rescale ``Y`` to an output-scale convention of :data:`algorithms.registry.OUTPUT_SCALES`.

    Parameters
    ----------
    Y : ndarray of shape (n_samples, d)
    convention : str
        A key of ``OUTPUT_SCALES``. ``"unit_variance"`` and ``"unit_norm"`` centre each column and
        divide it by its standard deviation or its Euclidean norm; the others (``"isometric"``,
        ``"diffusion"``, ``"neighbour_embedding"``) are a method's own coordinates and return Y unchanged.

    Returns
    -------
    ndarray of shape (n_samples, d)

    Notes
    -----
    Centring changes no measure (all are translation invariant); the scale decides R_N of a
    normalized output: an affine-exact swiss roll scores R_N ~ 0.81 at unit variance and ~0.995 at
    unit norm, GR Table 2's values for LLE and LTSA. A constant column (a collapsed output) is left
    at zero rather than divided by zero.
    """
    if convention not in OUTPUT_SCALES:
        raise ValueError(f"unknown output scale {convention!r}")
    if convention not in _NORMALIZING:
        return Y
    n_samples = Y.shape[0]
    centred = Y - Y.mean(axis=0)
    norm = np.linalg.norm(centred, axis=0)
    # A constant column centres to rounding residue (the float mean of 0.1, 0.1, 0.1 is not 0.1),
    # not to exact zeros; dividing would blow the residue up to a column of +-1. Residue is below
    # n eps |Y|, which no real coordinate spread approaches.
    collapsed = norm <= n_samples * np.finfo(float).eps * np.abs(Y).max(axis=0)
    size = norm / np.sqrt(n_samples) if convention == "unit_variance" else norm
    return np.where(collapsed, 0.0, centred / np.where(collapsed, 1.0, size))


def best_global_scale(X, Y, neighbors):
    """The factor ``c > 0`` minimizing R_N(X, cY) on the neighbourhoods ``neighbors`` (GR Eq. 4).

    Parameters
    ----------
    X : ndarray of shape (n_samples, q)
    Y : ndarray of shape (n_samples, d)
    neighbors : ndarray of shape (n_samples, k + 1)
        From :func:`measures.nearest_neighbors` on X: the graph every measure scores.

    Returns
    -------
    float

    Notes
    -----
    R_N(cY) is a parabola in c; :meth:`measures.LocalProcrustes.best_global_scale` gives its
    minimum in closed form. One factor for the whole output is a similarity, so R_C (and ASIM)
    are unchanged while R_N drops to what remains once an arbitrary overall scale is set fairly.
    """
    return local_procrustes(X, Y, neighbors).best_global_scale()


def rescale_output(Y, option, X=None, neighbors=None):
    """Apply a "rescale output" option of :data:`algorithms.registry.RESCALE_OPTIONS` to an embedding.

    Parameters
    ----------
    Y : ndarray of shape (n_samples, d)
        An embedding at its authors' scale.
    option : {"authors", "unit_variance", "unit_norm", "best_global_scale"}
    X : ndarray of shape (n_samples, q), optional
        The input, needed by ``"best_global_scale"``.
    neighbors : ndarray of shape (n_samples, k + 1), optional
        Its neighbourhoods, needed by ``"best_global_scale"``.

    Returns
    -------
    ndarray of shape (n_samples, d)

    Examples
    --------
    The best global scale of an affine-exact but shrunk output restores the input's scale:

    >>> import numpy as np
    >>> from measures import nearest_neighbors
    >>> Z = np.random.default_rng(0).uniform(size=(200, 2))
    >>> X = np.c_[Z, np.zeros(200)]
    >>> Y = rescale_output(Z / 7.0, "best_global_scale", X, nearest_neighbors(X, 8))
    >>> bool(np.allclose(Y, Z))
    True
    """
    if option not in RESCALE_OPTIONS:
        raise ValueError(f"unknown rescale option {option!r}")
    if option == "authors":
        return Y
    if option == "best_global_scale":
        return best_global_scale(X, Y, neighbors) * Y
    return apply_output_scale(Y, option)


def fix_signs(Y):
    """Flip each column so that its entry of largest magnitude is positive.

    Eigen- and singular-vector signs are arbitrary; this rule makes outputs, and so cached results
    and figures, identical across solvers and runs.
    """
    largest = np.argmax(np.abs(Y), axis=0)
    signs = np.sign(Y[largest, np.arange(Y.shape[1])])
    return Y * np.where(signs == 0, 1.0, signs)
