"""Samplers of two-dimensional surfaces in R³ with their ground-truth charts (SPEC §1).

Each sampler takes the validated sample size, a ``numpy.random.Generator`` and the data set's own
parameters, and returns the input points ``X`` (n, 3) with the chart ``truth`` (n, 2) that
generated them. Validation happens once, in :func:`datasets.load`; the samplers trust their input.
A sampler's draws come in a fixed order, so one seed gives one sample.

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25. Table 1: swiss roll,
   hemisphere and cylinder, Figs. 1-3.
.. [PN] Y. Goldberg, A. Zakai, D. Kushnir and Y. Ritov, "Manifold learning: the price of
   normalization", Journal of Machine Learning Research 9 (2008) 1909-1939. Fig. 1: the strip.
"""

import numpy as np

__all__ = ["cylinder", "hemisphere", "strip", "swiss_roll"]

# The swiss roll's angle range and height, as in GR Table 1 / SPEC §1.
SWISS_ROLL_ANGLES = (1.5 * np.pi, 4.5 * np.pi)
SWISS_ROLL_HEIGHT = 21.0


def _spiral_arc_length(t):
    """Arc length of the spiral ``t -> (t cos t, t sin t)`` from angle 0 to ``t``.

    Parameters
    ----------
    t : ndarray
        Angles (radians), ``t >= 0``.

    Returns
    -------
    ndarray
        Same shape as ``t``.

    Notes
    -----
    The speed of the spiral is ``sqrt(1 + t^2)``, whose antiderivative is

    .. math::

        s(t) = \\tfrac12 \\left( t \\sqrt{1 + t^2} + \\operatorname{asinh} t \\right).
    """
    return 0.5 * (t * np.sqrt(1.0 + t * t) + np.arcsinh(t))


def swiss_roll(n, rng):
    """Swiss roll of GR Table 1 with its isometric arc-length chart.

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws ``t`` then ``h``.

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(t cos t, h, t sin t)`` with ``t ~ U[1.5π, 4.5π]`` and ``h ~ U[0, 21]``.
    truth : ndarray of shape (n, 2)
        ``(s(t) - s(1.5π), h)``, arc length along the spiral and height.

    Notes
    -----
    The map from the truth to ``X`` is an isometry, so an embedding can be scored against it with
    R_N. The angle chart ``(t, h)`` is not isometric (the spiral's speed ``sqrt(1 + t^2)`` varies
    from 4.8 to 14.2) and keeps R_N near 0.37 (SPEC §1). The sample is uniform in ``t``, not in
    arc length, so the outer turns are sparser, as in GR.
    """
    t = rng.uniform(*SWISS_ROLL_ANGLES, size=n)
    height = rng.uniform(0.0, SWISS_ROLL_HEIGHT, size=n)
    X = np.column_stack([t * np.cos(t), height, t * np.sin(t)])
    arc_length = _spiral_arc_length(t) - _spiral_arc_length(SWISS_ROLL_ANGLES[0])
    return X, np.column_stack([arc_length, height])


def hemisphere(n, rng):
    """Upper unit hemisphere of GR Table 1, uniform in area, with its azimuthal equidistant chart.

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws ``z`` then the azimuth ``φ``.

    Returns
    -------
    X : ndarray of shape (n, 3)
        Points of the unit sphere with ``z >= 0``.
    truth : ndarray of shape (n, 2)
        ``θ (cos φ, sin φ)`` with ``θ = arccos z`` the geodesic distance from the pole (0, 0, 1).

    Notes
    -----
    By Archimedes' hat-box theorem the area of the band ``a <= z <= b`` of the unit sphere is
    ``2π (b - a)``, so ``z ~ U[0, 1]`` with an independent ``φ ~ U[0, 2π)`` is uniform in area.
    The azimuthal equidistant chart keeps distances from the pole and along meridians but stretches
    the parallels by ``θ / sin θ`` (up to π/2 at the rim). No chart of a curved surface is
    isometric (Gauss' Theorema Egregium), so no algorithm can reach R_N = 0 here (GR Fig. 2).
    """
    z = rng.uniform(0.0, 1.0, size=n)
    azimuth = rng.uniform(0.0, 2.0 * np.pi, size=n)
    ring_radius = np.sqrt(1.0 - z * z)
    X = np.column_stack([ring_radius * np.cos(azimuth), ring_radius * np.sin(azimuth), z])
    polar_angle = np.arccos(z)
    return X, np.column_stack([polar_angle * np.cos(azimuth), polar_angle * np.sin(azimuth)])


def cylinder(n, rng, *, radius, height):
    """Cylinder of GR Table 1, uniform in area, with its unrolled chart.

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws the angle ``φ`` then the height.
    radius, height : float
        Radius and height of the cylinder (GR uses 1 and 1).

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(r cos φ, r sin φ, h)`` with ``φ ~ U[0, 2π)`` and ``h ~ U[0, height]``.
    truth : ndarray of shape (n, 2)
        ``(r φ, h)``, the cylinder cut along ``φ = 0`` and unrolled.

    Notes
    -----
    The chart is a local isometry: two points at chart offset ``(Δs, Δh)`` lie at chord distance
    ``sqrt((2 r sin(Δs / 2r))^2 + Δh^2)`` in R³. Globally it is not: points on either side of the
    cut are neighbours in R³ and ``2π r`` apart in the chart, so neighbourhoods at the seam score
    large R_N against the truth. That is real (the cylinder has no embedding in R², GR Fig. 3).
    """
    azimuth = rng.uniform(0.0, 2.0 * np.pi, size=n)
    heights = rng.uniform(0.0, height, size=n)
    X = np.column_stack([radius * np.cos(azimuth), radius * np.sin(azimuth), heights])
    return X, np.column_stack([radius * azimuth, heights])


def strip(n, rng, *, length, thickness):
    """Uniform sample of the strip ``[0, L] × [0, 1]`` in R³, optionally thickened (PN Fig. 1).

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws ``u``, ``v``, then the normal offsets.
    length : float
        ``L``, the strip's aspect ratio (PN uses 6; LEM's two-dimensional embedding degenerates for L > 2, PN §6.1).
    thickness : float
        Standard deviation ``σ`` of Gaussian noise along the third axis, normal to the strip
        (PN Fig. 1C uses variance 1e-4, i.e. σ = 0.01).

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(u, v, σ ε)`` with ``ε ~ N(0, 1)``; the third column is 0 when ``σ = 0``.
    truth : ndarray of shape (n, 2)
        ``(u, v)``, the point itself.
    """
    u = rng.uniform(0.0, length, size=n)
    v = rng.uniform(0.0, 1.0, size=n)
    # Drawn even at σ = 0 so that the stream is consumed alike at every thickness: for one seed,
    # moving σ scales the same offsets, and the draws that follow (the noise modifier) do not move.
    offset = thickness * rng.standard_normal(n)
    return np.column_stack([u, v, offset]), np.column_stack([u, v])
