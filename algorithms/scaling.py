"""Output-scale conventions and the deterministic sign rule applied to every embedding (SPEC §2)."""

import numpy as np

__all__ = ["apply_output_scale", "fix_signs"]


def apply_output_scale(Y, convention):
    """Rescale ``Y`` to an output-scale convention of :data:`algorithms.registry.OUTPUT_SCALES`.

    Parameters
    ----------
    Y : ndarray of shape (n_samples, d)
    convention : {"isometric", "unit_variance", "unit_norm"}
        ``"isometric"`` returns Y unchanged; the others centre each column and divide it by its
        standard deviation or its Euclidean norm.

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
    if convention == "isometric":
        return Y
    if convention not in ("unit_variance", "unit_norm"):
        raise ValueError(f"unknown output scale {convention!r}")
    n_samples = Y.shape[0]
    centred = Y - Y.mean(axis=0)
    norm = np.linalg.norm(centred, axis=0)
    # A constant column centres to rounding residue (the float mean of 0.1, 0.1, 0.1 is not 0.1),
    # not to exact zeros; dividing would blow the residue up to a column of +-1. Residue is below
    # n eps |Y|, which no real coordinate spread approaches.
    collapsed = norm <= n_samples * np.finfo(float).eps * np.abs(Y).max(axis=0)
    size = norm / np.sqrt(n_samples) if convention == "unit_variance" else norm
    return np.where(collapsed, 0.0, centred / np.where(collapsed, 1.0, size))


def fix_signs(Y):
    """Flip each column so that its entry of largest magnitude is positive.

    Eigen- and singular-vector signs are arbitrary; this rule makes outputs, and so cached results
    and figures, identical across solvers and runs.
    """
    largest = np.argmax(np.abs(Y), axis=0)
    signs = np.sign(Y[largest, np.arange(Y.shape[1])])
    return Y * np.where(signs == 0, 1.0, signs)
