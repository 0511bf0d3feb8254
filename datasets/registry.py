"""The data-set registry: one :class:`DatasetSpec` per data set, and :func:`load`, its one entry point.

The dashboard builds its controls (sample-size slider, each set's own parameters) from these
entries, :func:`load` validates every call against them, and the common tests run over all of
them; adding a data set means adding its sampler and one entry here.
"""

import dataclasses

import numpy as np

from measures.errors import DatasetError, SeedError
from measures.parameters import Parameter, validate_parameters
from measures.seeding import check_random_state

from . import surfaces

__all__ = ["Dataset", "DatasetSpec", "available", "load", "spec", "specs"]

# The noise modifier of SPEC §1, common to every data set.
NOISE_PARAMETER = Parameter(
    "noise", "noise σ", "float", 0.0, low=0.0,
    help="Standard deviation of isotropic Gaussian noise added to the input points (not to the truth).")


@dataclasses.dataclass(frozen=True)
class DatasetSpec:
    """Metadata and sampler of one data set.

    Attributes
    ----------
    name : str
        Registry key, e.g. ``"swissroll"``.
    label : str
        Display name.
    description : str
        One sentence for the help text.
    citation : str
        Where the set comes from, e.g. ``"GR §5, Table 1, Fig. 1"``.
    default_n : int
        Sample size used when the caller gives none (the paper's).
    n_low, n_high : int
        Closed range of the sample size.
    parameters : tuple of measures.Parameter
        The set's own tunables (``n`` and ``noise`` are common to all).
    truth_labels : tuple of str
        Names of the ground-truth columns; the first also names the plot colouring.
    isometric : bool
        Whether the truth is an isometric chart of the sampled manifold.
    sample : callable
        ``sample(n, rng, **params) -> (X, truth)``; receives validated values.
    """

    name: str
    label: str
    description: str
    citation: str
    default_n: int
    parameters: tuple
    truth_labels: tuple
    isometric: bool
    sample: object
    n_low: int = 50
    n_high: int = 200_000

    @property
    def size_parameter(self):
        """The sample size ``n`` as a :class:`measures.Parameter`, for validation and the slider."""
        return Parameter("n", "points", "int", self.default_n, low=self.n_low, high=self.n_high,
                         help="Number of points sampled.")

    @property
    def all_parameters(self):
        """Every keyword :func:`load` takes for this set except ``seed``: n, own parameters, noise."""
        return (self.size_parameter, *self.parameters, NOISE_PARAMETER)


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """One sample of a data set, as returned by :func:`load`.

    The arrays are read-only, so a cached sample can be shared without being altered.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        Input points, noise included.
    truth : ndarray of shape (n_samples, d), float64, or None
        Ground-truth chart of the noiseless points, row for row; None where none is known.
    color : ndarray of shape (n_samples,), float64
        A colouring for plots: the first truth coordinate (the swiss roll's arc length).
    name : str
        Registry key.
    description : str
        One sentence on the set.
    isometric : bool
        Whether ``truth`` is an isometric chart of the manifold X was sampled from.
    params : dict
        The validated values used: ``n``, the set's own parameters, ``noise`` and ``seed``.
    """

    X: np.ndarray
    truth: np.ndarray
    color: np.ndarray
    name: str
    description: str
    isometric: bool
    params: dict


_SPECS = (
    DatasetSpec(
        name="swissroll",
        label="Swiss roll",
        description="A 21-high rectangle rolled into a spiral of 1.5 turns in R³; its arc-length chart "
                    "is isometric.",
        citation="GR §5, Table 1, Fig. 1",
        default_n=1600,
        parameters=(),
        truth_labels=("arc length", "height"),
        isometric=True,
        sample=surfaces.swiss_roll,
    ),
    DatasetSpec(
        name="hemisphere",
        label="Hemisphere",
        description="The upper unit hemisphere, uniform in area; a curved surface, so no chart is "
                    "isometric (the truth is the azimuthal equidistant chart).",
        citation="GR §5, Table 1, Fig. 2",
        default_n=2500,
        parameters=(),
        truth_labels=("θ cos φ", "θ sin φ"),
        isometric=False,
        sample=surfaces.hemisphere,
    ),
    DatasetSpec(
        name="cylinder",
        label="Cylinder",
        description="A cylinder, uniform in area; its unrolled chart is isometric but cut at a seam, "
                    "as the cylinder has no embedding in the plane.",
        citation="GR §5, Table 1, Figs. 3 and 5",
        default_n=800,
        parameters=(
            Parameter("radius", "radius", "float", 1.0, low=0.1, high=10.0, help="Radius of the cylinder."),
            Parameter("height", "height", "float", 1.0, low=0.1, high=10.0, help="Height of the cylinder."),
        ),
        truth_labels=("arc length rφ", "height"),
        isometric=True,
        sample=surfaces.cylinder,
    ),
    DatasetSpec(
        name="strip",
        label="Strip",
        description="A flat L × 1 strip in R³, optionally thickened by noise normal to it; normalized-"
                    "output algorithms collapse it when L is large.",
        citation="PN §3, Fig. 1",
        default_n=1000,
        parameters=(
            Parameter("length", "length L", "float", 6.0, low=1.0, high=50.0,
                      help="Length of the strip; its width is 1."),
            Parameter("thickness", "thickness σ", "float", 0.0, low=0.0, high=1.0,
                      help="Standard deviation of Gaussian offsets normal to the strip (PN: 0.01)."),
        ),
        truth_labels=("u", "v"),
        isometric=True,
        sample=surfaces.strip,
    ),
)

_REGISTRY = {entry.name: entry for entry in _SPECS}


def spec(name):
    """The :class:`DatasetSpec` registered as ``name``.

    Raises
    ------
    DatasetError
        If no data set has that name; the message lists the available ones.
    """
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise DatasetError(f"unknown data set {name!r}; available: {', '.join(available())}.") from None


def specs():
    """All registered data-set specs, in registry order."""
    return list(_SPECS)


def available():
    """Names of all registered data sets, in registry order."""
    return list(_REGISTRY)


def _read_only(array):
    """``array`` with its write flag cleared (a cached sample must not be altered by a caller)."""
    array.setflags(write=False)
    return array


def load(name, n=None, *, noise=0.0, seed=0, **params):
    """Draw a sample of a registered data set.

    Parameters
    ----------
    name : str
        Registry key, one of :func:`available`.
    n : int, optional
        Number of points, in ``[spec(name).n_low, spec(name).n_high]``; default
        ``spec(name).default_n`` (the paper's).
    noise : float, default=0.0
        Standard deviation σ >= 0 of isotropic Gaussian noise added to X (SPEC §1); the truth
        stays that of the noiseless points.
    seed : int or numpy.random.Generator, default=0
        Seeds ``numpy.random.default_rng``; a Generator is used as it is and advanced.
    **params
        The set's own parameters (see ``spec(name).parameters``); omitted or None means default.

    Returns
    -------
    Dataset

    Raises
    ------
    DatasetError
        On an unknown name, an unknown parameter, a value out of its declared range, a negative or
        non-finite noise, or a seed that is not a non-negative int or a Generator.

    Notes
    -----
    The sampler's draws come first and the noise's after them, from the same Generator, so a seed
    fixes the clean sample whatever the noise. The noise is drawn even at σ = 0, so a Generator
    passed as ``seed`` advances alike whatever σ, and for one seed changing σ scales a single
    perturbation ``σ ε`` instead of drawing a new one.

    Examples
    --------
    A seed fixes the sample; noise moves the points but not their truth:

    >>> import numpy as np
    >>> clean = load("swissroll", 400, seed=1)
    >>> noisy = load("swissroll", 400, seed=1, noise=0.1)
    >>> clean.X.shape, clean.truth.shape, noisy.params["noise"]
    ((400, 3), (400, 2), 0.1)
    >>> bool(np.array_equal(clean.truth, noisy.truth)), bool(np.array_equal(clean.X, noisy.X))
    (True, False)
    """
    entry = spec(name)
    values = validate_parameters(entry.all_parameters, {"n": n, "noise": noise, **params}, name, DatasetError)
    try:
        rng = check_random_state(seed)
    except SeedError as error:
        raise DatasetError(f"{name}: {error}") from error
    own = {parameter.name: values[parameter.name] for parameter in entry.parameters}
    X, truth = entry.sample(values["n"], rng, **own)
    X = X + values["noise"] * rng.standard_normal(X.shape)
    return Dataset(
        X=_read_only(X),
        truth=_read_only(truth),
        color=_read_only(truth[:, 0].copy()),
        name=name,
        description=entry.description,
        isometric=entry.isometric,
        # An int seed is echoed as a plain int so that params can enter a cache key.
        params={**values, "seed": seed if isinstance(seed, np.random.Generator) else int(seed)},
    )
