"""Image data sets: scikit-learn's bundled handwritten digits, and globe images we render ourselves.

Each image is one row of ``X``, its pixels in row-major order, so ``X[i].reshape(image_shape)`` is the
picture of point i (the :class:`datasets.Dataset` carries ``image_shape`` for the dashboard). The
image manifolds of GR and PN (Frey faces, USPS twos, Hamm's globe photographs) are not
redistributable offline; these two stand in for them (SPEC §1).

References
----------
.. [PN] Y. Goldberg, A. Zakai, D. Kushnir and Y. Ritov, "Manifold learning: the price of
   normalization", JMLR 9 (2008) 1909-1939, §5.5 and Figs. 6C, 9: 30 × 30 views of a globe,
   azimuth -45°..45° × elevation -30°..60°, and a 30 × 10 strip of them.
.. [ML] Z. Zhang and J. Wang, "MLLE: modified locally linear embedding using multiple weights",
   NIPS 19 (2007), Fig. 5: handwritten '2'-'5'.
.. [UCI] E. Alpaydin and C. Kaynak, "Optical recognition of handwritten digits", UCI repository
   (1998): the 8 × 8 images bundled with scikit-learn as ``load_digits``.
"""

import numpy as np
from sklearn.datasets import load_digits

from measures.chunks import chunk_slices

from .surfaces import finite_subset

__all__ = [
    "DIGIT_CLASSES",
    "GLOBE_AZIMUTHS",
    "GLOBE_ELEVATIONS",
    "digits",
    "digits_size",
    "globe",
    "globe_size",
    "render_globe",
]

# Class filters offered for the digits: one class, ML's '2'-'5', halves and all.
DIGIT_CLASSES = tuple(str(digit) for digit in range(10)) + ("2-5", "0-4", "5-9", "0-9")

# PN §5.5: 30 azimuths from -45° to 45° and 30 elevations from -30° to 60°, in degrees.
GLOBE_AZIMUTHS = np.linspace(-45.0, 45.0, 30)
GLOBE_ELEVATIONS = np.linspace(-30.0, 60.0, 30)
# The sphere's radius as a fraction of the half-width of the frame: a dark margin around the limb.
_GLOBE_RADIUS = 0.9
# Texture: a sum of this many von Mises-Fisher bumps of random sign on the sphere.
_TEXTURE_BUMPS = 32
# Light direction in camera coordinates (from the upper left, towards the viewer); fixed to the
# camera, so shading is the same in every view and only the texture moves.
_LIGHT = np.array([-0.4, 0.5, 0.77]) / np.linalg.norm([-0.4, 0.5, 0.77])


def _digit_classes(classes):
    """The digits named by a filter: ``"2"`` -> [2], ``"2-5"`` -> [2, 3, 4, 5]."""
    first, _, last = classes.partition("-")
    return np.arange(int(first), int(last or first) + 1)


def _digit_mask(classes):
    bunch = load_digits()
    return bunch, np.isin(bunch.target, _digit_classes(classes))


def digits_size(*, classes):
    """Number of images of the classes named by ``classes`` in scikit-learn's digits."""
    return int(_digit_mask(classes)[1].sum())


def digits(n, rng, *, classes):
    """8 × 8 grey images of handwritten digits, filtered by class (scikit-learn's ``load_digits``).

    Parameters
    ----------
    n : int
        Number of images to keep; all of the chosen classes when n reaches their count.
    rng : numpy.random.Generator
        Draws the subset when ``n`` is smaller than the class count; untouched otherwise.
    classes : str
        One of :data:`DIGIT_CLASSES`: a digit (``"2"``, as GR's twos) or a range (``"2-5"``, ML's).

    Returns
    -------
    X : ndarray of shape (n, 64)
        Pixel intensities 0..16, row-major 8 × 8.
    truth : None
        No chart is known for handwriting.
    color : ndarray of shape (n,)
        The class of each image, for colouring.
    """
    bunch, mask = _digit_mask(classes)
    keep = np.flatnonzero(mask)[finite_subset(rng, int(mask.sum()), n)]
    return bunch.data[keep].astype(np.float64), None, bunch.target[keep].astype(np.float64)


def _globe_views(elevation_rows):
    """Azimuth and elevation (degrees) of every view: 30 azimuths × the middle ``elevation_rows`` elevations."""
    first = (len(GLOBE_ELEVATIONS) - elevation_rows) // 2
    azimuth, elevation = np.meshgrid(GLOBE_AZIMUTHS, GLOBE_ELEVATIONS[first:first + elevation_rows],
                                     indexing="ij")
    return np.column_stack([azimuth.ravel(), elevation.ravel()])


def globe_size(*, image_size, elevation_rows):
    """Number of views of :func:`globe`: 30 azimuths × ``elevation_rows`` elevations."""
    return len(GLOBE_AZIMUTHS) * elevation_rows


def _draw_texture(rng):
    """Random bump centres (unit vectors), concentrations and signed weights of a globe's texture."""
    centres = rng.standard_normal((_TEXTURE_BUMPS, 3))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    concentrations = rng.uniform(6.0, 20.0, size=_TEXTURE_BUMPS)
    weights = rng.standard_normal(_TEXTURE_BUMPS)
    return centres, concentrations, weights


def render_globe(azimuth, elevation, image_size, texture):
    """Orthographic images of a textured unit sphere seen from the given directions.

    Parameters
    ----------
    azimuth, elevation : ndarray of shape (n_views,)
        Viewing angles in degrees: the camera sits on the unit sphere at
        ``f = (cos e sin a, sin e, cos e cos a)`` (world y is the globe's axis) and looks at the centre.
    image_size : int
        ``s``: images are ``s × s`` pixels.
    texture : tuple
        ``(centres (B, 3), concentrations (B,), weights (B,))`` of the bumps, as drawn by ``_draw_texture``.

    Returns
    -------
    ndarray of shape (n_views, s * s)
        Grey levels in [0, 1], rows of the image top to bottom; 0 off the sphere.

    Notes
    -----
    Each pixel centre ``(x, y)`` inside the disc of radius ``ρ = 0.9`` sees the sphere point with
    camera coordinates ``(x, y, z) / ρ``, ``z = sqrt(ρ² - x² - y²)``; in world coordinates that is
    ``(x r + y u + z f) / ρ`` with the camera's right ``r = (cos a, 0, -sin a)`` and up
    ``u = (-sin e sin a, cos e, -sin e cos a)``. The albedo there is
    ``½ (1 + tanh Σ_b w_b exp(κ_b (c_b · p - 1)))``, a smooth function of p, so every pixel is a smooth
    function of (a, e) and the views trace a two-dimensional manifold. Lambertian shading from a
    light fixed to the camera multiplies it. All views are rendered at once, in chunks of views.
    """
    centres, concentrations, weights = texture
    pixel_centres = (np.arange(image_size) + 0.5) / image_size * 2.0 - 1.0
    x, y = np.meshgrid(pixel_centres, -pixel_centres)  # rows top to bottom: y decreasing
    inside = x * x + y * y < _GLOBE_RADIUS**2
    camera = np.column_stack([x[inside], y[inside], np.sqrt(_GLOBE_RADIUS**2 - x[inside] ** 2 - y[inside] ** 2)])
    camera /= _GLOBE_RADIUS  # (m, 3) unit vectors in camera coordinates
    shading = 0.25 + 0.75 * np.clip(camera @ _LIGHT, 0.0, None)  # the dark side is ambient, not negative

    a, e = np.radians(azimuth), np.radians(elevation)
    right = np.column_stack([np.cos(a), np.zeros_like(a), -np.sin(a)])
    up = np.column_stack([-np.sin(e) * np.sin(a), np.cos(e), -np.sin(e) * np.cos(a)])
    forward = np.column_stack([np.cos(e) * np.sin(a), np.sin(e), np.cos(e) * np.cos(a)])
    basis = np.stack([right, up, forward], axis=1)  # (n_views, 3 camera axes, 3 world coords)

    images = np.zeros((len(a), image_size * image_size))
    inside_flat = inside.ravel()
    for part in chunk_slices(len(a), 8 * camera.shape[0] * (len(weights) + 8)):
        world = np.einsum("mk,vkj->vmj", camera, basis[part])  # (views, m, 3)
        bumps = np.exp(concentrations * (world @ centres.T - 1.0))  # (views, m, B)
        albedo = 0.5 * (1.0 + np.tanh(bumps @ weights))
        images[part][:, inside_flat] = albedo * shading
    return images


def globe(n, rng, *, image_size, elevation_rows):
    """Views of a seeded, procedurally textured globe on PN's azimuth × elevation grid (SPEC §1).

    Parameters
    ----------
    n : int
        Number of views to keep; all ``30 × elevation_rows`` when n reaches that.
    rng : numpy.random.Generator
        Draws the texture, then the subset of views when ``n`` is smaller than the grid.
    image_size : int
        ``s``: each view is an ``s × s`` grey image (SPEC: 32).
    elevation_rows : int
        Elevations kept, the middle rows of PN's 30: 30 is the full 30 × 30 array, 10 its 30 × 10
        strip (azimuth spanning 90°, elevation 28°: aspect ratio about 3).

    Returns
    -------
    X : ndarray of shape (n, s * s)
        The images, see :func:`render_globe`.
    truth : ndarray of shape (n, 2)
        ``(azimuth, elevation)`` in degrees, views in grid order (azimuth outer).

    Notes
    -----
    The map from (a, e) to images is smooth and one to one, so the views sample a two-dimensional
    manifold in R^{s²}; it is not isometric to the (a, e) plane (a texture feature near the limb
    moves fewer pixels per degree than one at the centre).
    """
    texture = _draw_texture(rng)
    views = _globe_views(elevation_rows)
    views = views[finite_subset(rng, len(views), n)]
    return render_globe(views[:, 0], views[:, 1], image_size, texture), views
