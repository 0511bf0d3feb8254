"""One point set moved onto another by the best similarity transform: orthogonal Procrustes with scale.

:func:`similarity_procrustes` is the one home of the global fit (a rotation or reflection, one
scale, a shift) that the dashboard uses to set two runs side by side, to draw outputs in the frame
of their ground truth, and to say how far an output's shape is from the truth's. Its residual is
the disparity of :func:`scipy.spatial.procrustes` and GR's conformal statistic (Eq. 7) with the
whole set as one neighbourhood; the rotation comes from :func:`measures.procrustes_rotation`, the
kernel of every local measure.

References
----------
.. [SC] P. H. Schönemann and R. M. Carroll, "Fitting one matrix to another under choice of a central
   dilation and a rigid motion", Psychometrika 35 (1970) 245-255.
"""

import dataclasses

import numpy as np

from .errors import MeasureError
from .kernels import coincident
from .neighbors import check_pair
from .procrustes import procrustes_rotation

__all__ = ["SimilarityFit", "similarity_procrustes"]


@dataclasses.dataclass(frozen=True, eq=False)
class SimilarityFit:
    """B moved onto A by the best similarity transform: ``aligned = scale * B @ rotation + translation``.

    Attributes
    ----------
    reference : ndarray of shape (n_samples, d)
        A as it was fitted: ``d = max(d_A, d_B)``, the narrower of the two padded with zero columns.
    aligned : ndarray of shape (n_samples, d)
        B after the transform.
    rotation : ndarray of shape (d, d)
        Orthogonal; a reflection when its determinant is -1.
    scale : float
        The one factor applied to B (> 0).
    translation : ndarray of shape (d,)
    displacement : ndarray of shape (n_samples,)
        ``||a_i - aligned_i||``: how far each point of B lies from its place in A after the transform.
    distance : float
        The global Procrustes distance ``sum_i ||a_i - aligned_i||^2 / ||A - mean A||_F^2`` in [0, 1]:
        0 when B is a similarity image of A, 1 when no similarity explains any of A. Its square root is
        the root-mean-square displacement over A's root-mean-square radius.
    """

    reference: np.ndarray
    aligned: np.ndarray
    rotation: np.ndarray
    scale: float
    translation: np.ndarray
    displacement: np.ndarray
    distance: float

    @property
    def reflection(self):
        """Whether the transform mirrors B (the rotation's determinant is -1)."""
        return bool(np.linalg.det(self.rotation) < 0)

    def transform(self, points):
        """Other points of B's space (rows of width ``d_B``) moved by the same transform."""
        return self.scale * (_padded(np.asarray(points, dtype=float), self.rotation.shape[0]) @ self.rotation) \
            + self.translation


def _padded(points, width):
    """``points`` with zero columns appended up to ``width`` (a d-dimensional set inside R^width)."""
    return np.pad(points, ((0, 0), (0, width - points.shape[1])))


def _centred(points, name):
    """``points`` minus their mean, and the mean; refuses a set that is one repeated point."""
    mean = points.mean(axis=0)
    centred = points - mean
    if coincident(np.array([np.einsum("ij,ij->", centred, centred)]), points, len(points))[0]:
        raise MeasureError(f"{name} puts every point at one place (its spread is rounding of its coordinates): "
                           "there is no shape to align. Check that the run did not collapse.")
    return centred, mean


def similarity_procrustes(A, B, *, names=("A", "B")):
    """Move ``B`` onto ``A`` by the rotation or reflection, scale and shift that fit best.

    Parameters
    ----------
    A : array-like of shape (n_samples, d_A)
        The reference (a run, or the ground truth).
    B : array-like of shape (n_samples, d_B)
        Another point set of the same points, row for row.
    names : tuple of str, default=("A", "B")
        What the messages call the two sets.

    Returns
    -------
    SimilarityFit

    Raises
    ------
    MeasureError
        On NaN or infinite values, different numbers of rows, or a set of one repeated point
        (there is no shape to fit: scipy's ``procrustes`` raises likewise).

    Notes
    -----
    With the centred ``A_c``, ``B_c`` (the narrower padded with zero columns) and the SVD
    ``A_c' B_c = U L V'``, the minimum over orthogonal Q, s > 0 and t of ``||A - s B Q - t||_F^2`` is
    attained at ``Q = V U'`` (reflections allowed), ``s = tr(L) / ||B_c||^2`` and
    ``t = mean A - s (mean B) Q`` [SC]_, and

    .. math::

        \\frac{\\|A_c - s B_c Q\\|_F^2}{\\|A_c\\|_F^2}
        = 1 - \\frac{\\mathrm{nuc}(A_c' B_c)^2}{\\|A_c\\|_F^2\\,\\|B_c\\|_F^2},

    R_C's statistic (GR Eq. 7) with all points as one neighbourhood, symmetric in A and B. The
    distance is computed from the residual itself (no cancellation near 0).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> A = rng.normal(size=(50, 2))
    >>> Q = np.array([[0.0, 1.0], [1.0, 0.0]])  # a reflection
    >>> fit = similarity_procrustes(A, 3.0 * A @ Q + [5.0, -2.0])
    >>> bool(np.allclose(fit.aligned, A)), round(fit.scale, 12), fit.reflection, fit.distance < 1e-24
    (True, 0.333333333333, True, True)
    """
    A, B = check_pair(A, B, names=names)
    width = max(A.shape[1], B.shape[1])
    A, B = _padded(A, width), _padded(B, width)
    A_centred, a_mean = _centred(A, names[0])
    B_centred, b_mean = _centred(B, names[1])
    if np.array_equal(A, B):  # one set beside itself: the identity, exactly (an SVD would leave rounding)
        return SimilarityFit(reference=A, aligned=B, rotation=np.eye(width), scale=1.0, translation=np.zeros(width),
                             displacement=np.zeros(len(A)), distance=0.0)
    rotation = procrustes_rotation(A_centred, B_centred).T
    rotated = B_centred @ rotation
    scale = float(np.einsum("ij,ij->", rotated, A_centred) / np.einsum("ij,ij->", B_centred, B_centred))
    aligned = scale * rotated + a_mean
    residual = A - aligned
    squared = np.einsum("ij,ij->i", residual, residual)
    return SimilarityFit(reference=A, aligned=aligned, rotation=rotation, scale=scale,
                         translation=a_mean - scale * (b_mean @ rotation), displacement=np.sqrt(squared),
                         distance=float(squared.sum() / np.einsum("ij,ij->", A_centred, A_centred)))
