"""Samplers of two-dimensional surfaces in R³ with their ground-truth charts (SPEC §1).

Each sampler takes the validated sample size, a ``numpy.random.Generator`` and the data set's own
parameters, and returns the input points ``X`` (n, 3) with the chart ``truth`` (n, 2) that
generated them. Validation happens once, in :func:`datasets.load`; the samplers trust their input.
A sampler's draws come in a fixed order, so one seed gives one sample.

Where a surface has both an isometric (or equidistant) chart and a conformal one, the sampler's
``chart`` argument picks which it returns: the stereographic projection of a sphere and the
annulus of a cylinder are conformal, so R_C of the chart tends to 0 while R_N does not (GR Theorem 3).

References
----------
.. [GR] Y. Goldberg and Y. Ritov, "Local Procrustes for manifold embedding: a measure of embedding
   quality and embedding algorithms", Machine Learning 77 (2009) 1-25. Table 1: swiss roll,
   hemisphere and cylinder, Figs. 1-3.
.. [PN] Y. Goldberg, A. Zakai, D. Kushnir and Y. Ritov, "Manifold learning: the price of
   normalization", Journal of Machine Learning Research 9 (2008) 1909-1939. Fig. 1: the strip;
   §4: the grid; §5.5, Fig. 6: the fishbowl.
.. [NQ] P. Zhang, Y. Ren and B. Zhang (NIEQA), Neurocomputing 97 (2012) 251-266, Table II: swisshole and
   the Gaussian surface.
.. [ML] Z. Zhang and J. Wang, "MLLE: modified locally linear embedding using multiple weights",
   NIPS 19 (2007), §5: the swiss roll with a hole and the three peaks.
"""

import numpy as np
from sklearn.datasets import make_s_curve

from measures.seeding import seed_int

__all__ = [
    "cylinder",
    "finite_subset",
    "fishbowl",
    "gaussian_surface",
    "grid",
    "hemisphere",
    "s_curve",
    "strip",
    "swiss_hole",
    "swiss_roll",
    "three_peaks",
]

# The swiss roll's angle range and height, as in GR Table 1 / SPEC §1.
SWISS_ROLL_ANGLES = (1.5 * np.pi, 4.5 * np.pi)
SWISS_ROLL_HEIGHT = 21.0
# The hole of the swisshole (SPEC §1: 9 < t < 12, 9 < h < 14), as a centre and default extents.
SWISS_HOLE_CENTRE = (10.5, 11.5)
SWISS_HOLE_SIZE = (3.0, 5.0)


def finite_subset(rng, population, n):
    """Indices of ``n`` of ``population`` items, drawn without replacement and sorted; all when n >= population.

    Finite data sets (a lattice, a grid of rendered views, the digits) take ``n`` as a request for
    a seeded subset, kept in the set's own order so that lattice rows stay recognisable. No draw is
    made when every item is kept.
    """
    if n >= population:
        return np.arange(population)
    return np.sort(rng.choice(population, size=n, replace=False))


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
    return _rolled(t, height)


def _rolled(t, height):
    """Swiss-roll points ``(t cos t, h, t sin t)`` and their arc-length chart, from angles and heights."""
    X = np.column_stack([t * np.cos(t), height, t * np.sin(t)])
    arc_length = _spiral_arc_length(t) - _spiral_arc_length(SWISS_ROLL_ANGLES[0])
    return X, np.column_stack([arc_length, height])


def swiss_hole(n, rng, *, hole_width, hole_height):
    """Swiss roll with a rectangular hole in its parameter plane (NQ Table II, ML Fig. 3).

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws, for every point, which piece of the domain it falls in, then its offsets in the piece.
    hole_width, hole_height : float
        Extent of the hole in the angle ``t`` and in the height ``h``, centred at
        ``(10.5, 11.5)``; the defaults 3 and 5 give SPEC §1's ``9 < t < 12, 9 < h < 14``. The
        registry's ranges (up to 7 and 18) keep the hole inside the roll's rectangle.

    Returns
    -------
    X, truth : ndarray of shape (n, 3), ndarray of shape (n, 2)
        As :func:`swiss_roll`, with no point inside the hole.

    Notes
    -----
    Uniform on the rectangle ``[1.5π, 4.5π] × [0, 21]`` minus the open hole, drawn exactly rather
    than by rejection: the domain is four rectangles (left and right of the hole at full height,
    below and above it at the hole's width), a point picks one with probability proportional to
    its area, then falls uniformly in it. Time and memory are linear in ``n`` whatever the hole
    (rejection needed 1 / (1 - 0.64) = 2.8 draws per point for the largest one, and a loop), and
    the generator advances by the same amount for every hole. The chart stays isometric, but the
    domain is no longer convex, so the roll's geodesics bend around the hole (NQ: "geodesic
    non-connected").
    """
    (t_low, t_high), height = SWISS_ROLL_ANGLES, SWISS_ROLL_HEIGHT
    (t_centre, h_centre), (t_half, h_half) = SWISS_HOLE_CENTRE, (hole_width / 2.0, hole_height / 2.0)
    hole_t, hole_h = (t_centre - t_half, t_centre + t_half), (h_centre - h_half, h_centre + h_half)
    corners = np.array([[t_low, 0.0], [hole_t[1], 0.0], [hole_t[0], 0.0], [hole_t[0], hole_h[1]]])
    sides = np.array([[hole_t[0] - t_low, height], [t_high - hole_t[1], height],
                      [hole_t[1] - hole_t[0], hole_h[0]], [hole_t[1] - hole_t[0], height - hole_h[1]]])
    cumulative_area = np.cumsum(sides.prod(axis=1))
    # side="right" never picks a piece of zero area (no hole: the middle column's pieces vanish).
    piece = np.searchsorted(cumulative_area, rng.uniform(0.0, cumulative_area[-1], size=n), side="right")
    piece = np.minimum(piece, len(sides) - 1)  # a draw equal to the total, by rounding, stays in the last piece
    offsets = rng.uniform(size=(n, 2))
    offsets *= sides[piece]
    offsets += corners[piece]
    return _rolled(offsets[:, 0], offsets[:, 1])


def hemisphere(n, rng, *, chart="equidistant"):
    """Upper unit hemisphere of GR Table 1, uniform in area, with its azimuthal equidistant chart.

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws ``z`` then the azimuth ``φ``.
    chart : {"equidistant", "stereographic"}
        Which chart to return as the truth.

    Returns
    -------
    X : ndarray of shape (n, 3)
        Points of the unit sphere with ``z >= 0``.
    truth : ndarray of shape (n, 2)
        ``"equidistant"``: ``θ (cos φ, sin φ)`` with ``θ = arccos z`` the geodesic distance from the
        pole (0, 0, 1). ``"stereographic"``: ``2 (x, y) / (1 + z)``, the projection from the south
        pole onto the plane tangent at the north pole.

    Notes
    -----
    By Archimedes' hat-box theorem the area of the band ``a <= z <= b`` of the unit sphere is
    ``2π (b - a)``, so ``z ~ U[0, 1]`` with an independent ``φ ~ U[0, 2π)`` is uniform in area.
    The azimuthal equidistant chart keeps distances from the pole and along meridians but stretches
    the parallels by ``θ / sin θ`` (up to π/2 at the rim). No chart of a curved surface is
    isometric (Gauss' Theorema Egregium), so no algorithm can reach R_N = 0 here (GR Fig. 2).
    The stereographic chart is conformal, with scale ``2 / (1 + z)`` (1 at the pole, 2 at the rim):
    its R_C tends to 0 as the neighbourhoods shrink while its R_N does not (GR Theorem 3).
    """
    z = rng.uniform(0.0, 1.0, size=n)
    azimuth = rng.uniform(0.0, 2.0 * np.pi, size=n)
    ring_radius = np.sqrt(1.0 - z * z)
    X = np.column_stack([ring_radius * np.cos(azimuth), ring_radius * np.sin(azimuth), z])
    if chart == "stereographic":
        chart_radius = 2.0 * ring_radius / (1.0 + z)
    else:
        chart_radius = np.arccos(z)
    return X, np.column_stack([chart_radius * np.cos(azimuth), chart_radius * np.sin(azimuth)])


def fishbowl(n, rng, *, rim_height, chart="equidistant"):
    """Unit sphere minus a cap around the north pole, uniform in area (PN §5.5, Fig. 6B).

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws ``z`` then the azimuth ``φ``.
    rim_height : float
        ``z₀``: points with ``z <= z₀`` are kept, so the cap ``z > z₀`` is removed.
    chart : {"equidistant", "stereographic"}
        Which chart to return as the truth.

    Returns
    -------
    X : ndarray of shape (n, 3)
    truth : ndarray of shape (n, 2)
        ``"equidistant"``: ``θ (cos φ, sin φ)`` with ``θ = arccos(-z)`` the geodesic distance from
        the south pole (SPEC §1). ``"stereographic"``: ``2 (x, y) / (1 - z)``, the projection from
        the (removed) north pole onto the plane tangent at the south pole; conformal with scale
        ``2 / (1 - z)``.

    Notes
    -----
    Uniform in area for the reason given in :func:`hemisphere`: ``z ~ U[-1, z₀]``. PN do not give
    the size of the cap; ``z₀ = 0.8`` (a rim of radius 0.6) is our default. The equidistant chart
    stretches parallels by ``θ / sin θ``, which grows without bound towards the rim as ``z₀ -> 1``:
    this is what makes the fishbowl hard for methods that keep distances.
    """
    z = rng.uniform(-1.0, rim_height, size=n)
    azimuth = rng.uniform(0.0, 2.0 * np.pi, size=n)
    ring_radius = np.sqrt(1.0 - z * z)
    X = np.column_stack([ring_radius * np.cos(azimuth), ring_radius * np.sin(azimuth), z])
    if chart == "stereographic":
        chart_radius = 2.0 * ring_radius / (1.0 - z)
    else:
        chart_radius = np.arccos(-z)
    return X, np.column_stack([chart_radius * np.cos(azimuth), chart_radius * np.sin(azimuth)])


def cylinder(n, rng, *, radius, height, chart="unrolled"):
    """Cylinder of GR Table 1, uniform in area, with its unrolled chart.

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws the angle ``φ`` then the height.
    radius, height : float
        Radius and height of the cylinder (GR uses 1 and 1).
    chart : {"unrolled", "annulus"}
        Which chart to return as the truth.

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(r cos φ, r sin φ, h)`` with ``φ ~ U[0, 2π)`` and ``h ~ U[0, height]``.
    truth : ndarray of shape (n, 2)
        ``"unrolled"``: ``(r φ, h)``, the cylinder cut along ``φ = 0`` and unrolled.
        ``"annulus"``: ``r e^{h/r} (cos φ, sin φ)``, the image of ``exp((h + i r φ) / r)``: a
        conformal chart (scale ``e^{h/r}``) onto an annulus, with no seam.

    Notes
    -----
    The chart is a local isometry: two points at chart offset ``(Δs, Δh)`` lie at chord distance
    ``sqrt((2 r sin(Δs / 2r))^2 + Δh^2)`` in R³. Globally it is not: points on either side of the
    cut are neighbours in R³ and ``2π r`` apart in the chart, so neighbourhoods at the seam score
    large R_N against the truth. That is real (the cylinder has no isometric embedding in R², GR
    Fig. 3). It has a conformal one, the annulus, whose R_C is small everywhere (GR Theorem 3).
    """
    azimuth = rng.uniform(0.0, 2.0 * np.pi, size=n)
    heights = rng.uniform(0.0, height, size=n)
    X = np.column_stack([radius * np.cos(azimuth), radius * np.sin(azimuth), heights])
    if chart == "annulus":
        annulus_radius = radius * np.exp(heights / radius)
        return X, np.column_stack([annulus_radius * np.cos(azimuth), annulus_radius * np.sin(azimuth)])
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


def grid(n, rng, *, half_width, half_height):
    """The integer lattice ``[-m..m] × [-q..q]`` of PN §4, placed in the plane ``z = 0`` of R³.

    Parameters
    ----------
    n : int
        Number of lattice points to keep; all ``(2m + 1)(2q + 1)`` when n reaches that.
    rng : numpy.random.Generator
        Draws the subset when ``n`` is smaller than the lattice; untouched otherwise.
    half_width, half_height : int
        ``m`` and ``q``. PN compare the 81 × 41 lattice (m = 40, q = 20), on which Laplacian
        eigenmaps keep both dimensions, with the 81 × 39 one (q = 19), on which they collapse it to
        a curve: the switch is at aspect ratio 2 (PN Theorem 4.1, Fig. 4).

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(i, j, 0)``, lattice rows in order (i outer, j inner).
    truth : ndarray of shape (n, 2)
        ``(i, j)``: the lattice is its own isometric chart.
    """
    columns = np.arange(-half_width, half_width + 1, dtype=np.float64)
    rows = np.arange(-half_height, half_height + 1, dtype=np.float64)
    lattice = np.stack(np.meshgrid(columns, rows, indexing="ij"), axis=-1).reshape(-1, 2)
    lattice = lattice[finite_subset(rng, len(lattice), n)]
    return np.column_stack([lattice, np.zeros(len(lattice))]), lattice


def grid_size(*, half_width, half_height):
    """Number of points of the ``(2m + 1) × (2q + 1)`` lattice of :func:`grid`."""
    return (2 * half_width + 1) * (2 * half_height + 1)


def gaussian_surface(n, rng):
    """The graph of a Gaussian bump over Gaussian-distributed parameters (NQ §V, Table II).

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        Draws ``u`` (n, 2) row by row.

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(u₁, u₂, exp(-|u|²/2) / (2π))`` with ``u ~ N(0, I₂)``.
    truth : ndarray of shape (n, 2)
        ``u``.

    Notes
    -----
    The chart is nearly but not exactly isometric: the metric is ``I + ∇h ∇h'`` with
    ``|∇h| = |u| e^{-|u|²/2} / (2π) <= e^{-1/2} / (2π) ≈ 0.097``, so lengths stretch by at most
    0.5 % (at ``|u| = 1``); the surface is curved, so no chart is exactly isometric.
    """
    u = rng.standard_normal((n, 2))
    height = np.exp(-0.5 * np.einsum("ij,ij->i", u, u)) / (2.0 * np.pi)
    return np.column_stack([u, height]), u


def three_peaks(n, rng):
    """The three-peak surface of ML §5 (Zhang & Wang's MLLE paper, Fig. 4).

    Parameters
    ----------
    n : int
        Number of points (ML: 1225).
    rng : numpy.random.Generator
        Draws ``(t, s)`` (n, 2) row by row.

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(t, s, h(t, s))`` with ``t, s ~ U[-1.5, 1.5]`` and
        ``h = e^{-10((t-.5)²+(s-.5)²)} - e^{-10(t²+(s+1)²)} - e^{-10((1+t)²+s²)}``.
    truth : ndarray of shape (n, 2)
        ``(t, s)``, the generating coordinates.

    Notes
    -----
    ML call the chart "approximately isometric"; it is so only away from the peaks. Each bump has
    slope up to ``20 r e^{-10 r²} <= sqrt(20) e^{-1/2} ≈ 2.7``, so lengths across a flank stretch
    by up to ``sqrt(1 + 2.7²) ≈ 2.9``; R_N of the chart is small on the plateau and large on
    the flanks, which is what the data set is for (LTSA bends there, MLLE less).
    """
    t, s = rng.uniform(-1.5, 1.5, size=(n, 2)).T
    height = (np.exp(-10.0 * ((t - 0.5) ** 2 + (s - 0.5) ** 2)) - np.exp(-10.0 * (t**2 + (s + 1.0) ** 2))
              - np.exp(-10.0 * ((1.0 + t) ** 2 + s**2)))
    return np.column_stack([t, s, height]), np.column_stack([t, s])


def s_curve(n, rng):
    """scikit-learn's S-curve (``sklearn.datasets.make_s_curve``), seeded from ``rng``, with its chart.

    Parameters
    ----------
    n : int
        Number of points.
    rng : numpy.random.Generator
        One integer is drawn from it to seed scikit-learn's generator.

    Returns
    -------
    X : ndarray of shape (n, 3)
        ``(sin t, y, sign(t)(cos t - 1))`` with ``t ~ U[-3π/2, 3π/2]``, ``y ~ U[0, 2]``.
    truth : ndarray of shape (n, 2)
        ``(t, y)``: scikit-learn's parameter and the height.

    Notes
    -----
    Each half of the S is an arc of a unit circle traversed at unit speed (``|d/dt (sin t,
    cos t - 1)| = 1``), so ``(t, y)`` is an exact isometric chart. scikit-learn's own noise is
    left at 0: the ``noise`` modifier of :func:`datasets.load` applies to every set alike.
    """
    X, t = make_s_curve(n, noise=0.0, random_state=seed_int(rng))
    return X, np.column_stack([t, X[:, 1]])
