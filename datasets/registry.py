"""The data-set registry: one :class:`DatasetSpec` per data set, and :func:`load`, its one entry point.

The dashboard builds its controls (sample-size slider, each set's own parameters) from these
entries, :func:`load` validates every call against them, and the common tests run over all of
them; adding a data set means adding its sampler and one entry here.
"""

import dataclasses
import typing
import warnings

import numpy as np

from measures.errors import DatasetError, ProcrustesLabWarning, SeedError
from measures.parameters import Parameter, validate_parameters
from measures.registries import Registry
from measures.seeding import check_random_state

from . import images, surfaces

if typing.TYPE_CHECKING:  # datasets.upload imports this module: the type is named, not imported, at run time
    from .upload.description import UploadDescription

__all__ = ["Chart", "Dataset", "DatasetSpec", "available", "load", "spec", "specs"]

# The noise modifier of SPEC §1, common to every data set. Bounded: σ = 1000 already buries every
# set (the largest spans a few dozen units), and near 1e154 the squared distances of every measure
# overflow, so a huge σ would be accepted here and fail inside the job.
NOISE_PARAMETER = Parameter(
    "noise", "noise σ", "float", 0.0, low=0.0, high=1000.0,
    help="Standard deviation of isotropic Gaussian noise added to the input points (not to the truth).")

# The stretch modifier of SPEC §1, common to every data set. It is listed among each set's
# ``parameters`` (so the dashboard shows it with them) but applied by :func:`load`, not the sampler.
STRETCH_PARAMETER = Parameter(
    "stretch", "stretch c", "float", 1.0, low=0.1, high=10.0,
    help="Factor on the first input coordinate (PN Fig. 6: 3 for the swiss roll, 4 for the fishbowl); "
         "the truth is left as it was, so it is no longer isometric when c != 1.")
# Sampler keywords that are modifiers, not a set's own parameters.
_MODIFIERS = ("stretch",)


@dataclasses.dataclass(frozen=True)
class Chart:
    """One ground-truth chart a data set can return.

    Attributes
    ----------
    name : str
        Value of the set's ``chart`` parameter that selects it (when the set offers several).
    labels : tuple of str
        Names of the chart's coordinates; the first also names the default colouring.
    isometric : bool
        Whether the chart is an isometry of the sampled manifold (R_N of the chart tends to 0).
    conformal : bool
        Whether it is conformal (R_C tends to 0; GR Theorem 3). Isometric charts are conformal.
    """

    name: str
    labels: tuple
    isometric: bool
    conformal: bool

    def __post_init__(self):
        if self.isometric and not self.conformal:
            raise ValueError(f"chart {self.name!r}: an isometric chart is conformal")


def _chart_parameter(*charts):
    """The ``chart`` choice parameter of a set that offers several charts, the first the default."""
    neither = "neither isometric nor conformal"
    return Parameter("chart", "ground truth", "choice", charts[0].name, choices=tuple(c.name for c in charts),
                     help="Which chart of the manifold is returned as its ground truth: "
                          + "; ".join(f"{c.name}: "
                                      f"{'isometric' if c.isometric else 'conformal' if c.conformal else neither}"
                                      for c in charts) + ".")


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
        Sample size used when the caller gives none (the paper's). For a finite set, the size of
        the whole set at the default parameters.
    parameters : tuple of measures.Parameter
        The tunables the dashboard shows for this set: its own parameters, the ``chart`` choice
        when it offers several charts, and the ``stretch`` modifier (``n`` and ``noise`` have
        controls of their own).
    charts : tuple of Chart
        The ground-truth charts the set can return, the default first; empty when no truth is
        known (the digits).
    sample : callable
        ``sample(n, rng, **params) -> (X, truth)`` or ``(X, truth, color)``; receives validated
        values of the set's own parameters (and ``chart``), never ``stretch``. ``truth`` is None
        when the set has no chart, and ``color`` then required. ``X`` must be a new array:
        :func:`load` stretches it and adds the noise in place.
    n_low, n_high : int
        Closed range of the sample size. Every sampler is vectorized and draws 10^6 points in
        about 0.2 s within about 100 MB (``bench/datasets.py``), so ``n_high`` is 10^6 unless a
        set's own mathematics bounds it (a finite set keeps at most its population anyway).
    population : callable or None
        For a finite set (a lattice, a grid of views, the digits), ``population(**params)`` gives
        how many points the set's own parameters make; ``n`` then asks for a seeded subset of
        them and the default (None) takes all. None for sets sampled from a continuum.
    image_shape : callable or None
        For image sets, ``image_shape(**params)`` gives the shape a row of X reshapes to.
    color_label : str
        Name of the colouring when the set has no chart (the digits' class).
    """

    name: str
    label: str
    description: str
    citation: str
    default_n: int
    parameters: tuple
    charts: tuple
    sample: object
    n_low: int = 50
    n_high: int = 1_000_000
    population: object = None
    image_shape: object = None
    color_label: str = ""

    def __post_init__(self):
        names = [parameter.name for parameter in self.parameters]
        chart_choices = tuple(chart.name for chart in self.charts)
        declared = next((p.choices for p in self.parameters if p.name == "chart"), None)
        if len(self.charts) > 1 and declared != chart_choices:
            raise ValueError(f"data set {self.name!r}: its 'chart' parameter must offer {chart_choices}")
        if len(self.charts) <= 1 and "chart" in names:
            raise ValueError(f"data set {self.name!r}: a 'chart' parameter needs several charts")
        if not self.charts and not self.color_label:
            raise ValueError(f"data set {self.name!r}: a set without a chart needs a color_label")

    @property
    def truth_labels(self):
        """Names of the default chart's columns, or ``(color_label,)`` for a set without a chart.

        Either way they name the columns the dashboard can colour by (the truth, or the colouring
        when there is no truth).
        """
        return self.charts[0].labels if self.charts else (self.color_label,)

    @property
    def isometric(self):
        """Whether the default chart is isometric (False for a set without a chart)."""
        return bool(self.charts) and self.charts[0].isometric

    @property
    def size_parameter(self):
        """The sample size ``n`` as a :class:`measures.Parameter`, for validation and the slider."""
        help_text = ("Number of points sampled." if self.population is None else
                     "Number of points kept, a seeded subset of the whole set; empty keeps them all.")
        return Parameter("n", "points", "int", self.default_n, low=self.n_low, high=self.n_high, help=help_text)

    @property
    def all_parameters(self):
        """Every keyword :func:`load` takes for this set except ``random_state``: n, own parameters, noise."""
        return (self.size_parameter, *self.parameters, NOISE_PARAMETER)


@dataclasses.dataclass(frozen=True, eq=False)
class Dataset:
    """One sample of a data set, as returned by :func:`load` (or an upload, by :func:`datasets.parse_upload`).

    The arrays are read-only views, made so on construction: a cached sample can be shared without
    being altered through it.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        Input points, stretch and noise included.
    truth : ndarray of shape (n_samples, d), float64, or None
        Ground-truth chart of the unstretched, noiseless points, row for row; None where none is
        known (then ``color`` carries the class labels).
    color : ndarray of shape (n_samples,), float64
        A colouring for plots: the first truth coordinate (the swiss roll's arc length), or the
        class of each point when there is no truth.
    name : str
        Registry key (``"upload"`` for a user's file).
    description : str
        One sentence on the set.
    isometric : bool
        Whether ``truth`` is an isometric chart of the manifold X was sampled from (False after a
        stretch, which changes the manifold but not the truth).
    params : dict
        The validated values used: ``n`` (the number of points returned), the set's own
        parameters, ``stretch``, ``noise`` and ``random_state``; empty for an upload, whose
        options are in ``upload``.
    conformal : bool
        Whether ``truth`` is a conformal chart (true of isometric charts too).
    truth_labels : tuple of str
        Names of the truth's columns (of the colouring when there is no truth).
    image_shape : tuple of int or None
        For image sets, the shape ``X[i]`` reshapes to for display (``X[i].reshape(image_shape)``).
    Y : ndarray of shape (n_samples, d), float64, or None
        An embedding of X that came with it, row for row (an upload's output, to be judged as
        it is); None for the registry's sets, whose outputs the algorithms compute.
    output_labels : tuple of str
        Names of Y's columns (empty without Y).
    upload : datasets.upload.UploadDescription or None
        For an upload, what :func:`datasets.parse_upload` read and chose (the file, the columns,
        the rows dropped, the warnings); None for the registry's sets.
    metadata : dict of str to ndarray of shape (n_samples,)
        Columns carried with the points and not embedded (an upload's ``metadata_columns``), by
        name: float64 numbers or ``str`` texts. Empty for the registry's sets.
    """

    X: np.ndarray
    truth: np.ndarray
    color: np.ndarray
    name: str
    description: str
    isometric: bool
    params: dict
    conformal: bool = False
    truth_labels: tuple = ()
    image_shape: tuple = None
    Y: np.ndarray = None
    output_labels: tuple = ()
    upload: "UploadDescription | None" = None
    metadata: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        for field in ("X", "truth", "color", "Y"):
            object.__setattr__(self, field, _read_only_view(getattr(self, field)))
        object.__setattr__(self, "metadata", {name: _read_only_view(values) for name, values in self.metadata.items()})


def _read_only_view(array):
    """A read-only view of ``array`` (None stays None), so that a shared sample cannot be altered through it.

    The data are not copied; whoever holds ``array`` itself can still write to it, so pass arrays
    that nothing else keeps (as :func:`load` and :func:`datasets.parse_upload` do).

    Examples
    --------
    >>> view = _read_only_view(np.zeros(3))
    >>> view.flags.writeable
    False
    """
    if array is None:
        return None
    view = np.asarray(array).view()
    view.flags.writeable = False
    return view


def _with_stretch(*parameters):
    """A set's parameters followed by the stretch modifier, as listed in its spec."""
    return (*parameters, STRETCH_PARAMETER)


_ROLL_CHART = Chart("arc length", ("arc length", "height"), isometric=True, conformal=True)
_SPHERE_EQUIDISTANT = Chart("equidistant", ("θ cos φ", "θ sin φ"), isometric=False, conformal=False)
_SPHERE_STEREOGRAPHIC = Chart("stereographic", ("stereographic u", "stereographic v"), isometric=False,
                              conformal=True)
_CYLINDER_UNROLLED = Chart("unrolled", ("arc length rφ", "height"), isometric=True, conformal=True)
_CYLINDER_ANNULUS = Chart("annulus", ("annulus u", "annulus v"), isometric=False, conformal=True)

_SPECS = (
    DatasetSpec(
        name="swissroll",
        label="Swiss roll",
        description="A 21-high rectangle rolled into a spiral of 1.5 turns in R³; its arc-length chart "
                    "is isometric.",
        citation="GR §5, Table 1, Fig. 1",
        default_n=1600,
        parameters=_with_stretch(),
        charts=(_ROLL_CHART,),
        sample=surfaces.swiss_roll,
    ),
    DatasetSpec(
        name="swisshole",
        label="Swiss roll with a hole",
        description="The swiss roll minus the rectangle 9 < t < 12, 9 < h < 14 of its parameters: "
                    "isometric chart, non-convex domain.",
        citation="NQ Table II, Fig. 3; ML Fig. 3",
        default_n=1000,
        parameters=_with_stretch(
            Parameter("hole_width", "hole width Δt", "float", surfaces.SWISS_HOLE_SIZE[0], low=0.0, high=7.0,
                      help="Extent of the hole in the spiral angle t, centred at t = 10.5 (0: no hole)."),
            Parameter("hole_height", "hole height Δh", "float", surfaces.SWISS_HOLE_SIZE[1], low=0.0, high=18.0,
                      help="Extent of the hole in the height h, centred at h = 11.5 (0: no hole)."),
        ),
        charts=(_ROLL_CHART,),
        sample=surfaces.swiss_hole,
    ),
    DatasetSpec(
        name="hemisphere",
        label="Hemisphere",
        description="The upper unit hemisphere, uniform in area; a curved surface, so no chart is "
                    "isometric (the truth is the azimuthal equidistant chart, or the conformal "
                    "stereographic one).",
        citation="GR §5, Table 1, Fig. 2",
        default_n=2500,
        parameters=_with_stretch(_chart_parameter(_SPHERE_EQUIDISTANT, _SPHERE_STEREOGRAPHIC)),
        charts=(_SPHERE_EQUIDISTANT, _SPHERE_STEREOGRAPHIC),
        sample=surfaces.hemisphere,
    ),
    DatasetSpec(
        name="fishbowl",
        label="Fishbowl",
        description="The unit sphere minus a cap around the north pole, uniform in area; the truth is "
                    "the azimuthal equidistant chart from the south pole (or the stereographic one).",
        citation="PN §5.5, Figs. 6B, 8",
        default_n=2400,
        parameters=_with_stretch(
            Parameter("rim_height", "rim height z₀", "float", 0.8, low=-0.5, high=0.95,
                      help="Points with z <= z₀ are kept: the bowl's rim is the circle z = z₀."),
            _chart_parameter(_SPHERE_EQUIDISTANT, _SPHERE_STEREOGRAPHIC),
        ),
        charts=(_SPHERE_EQUIDISTANT, _SPHERE_STEREOGRAPHIC),
        sample=surfaces.fishbowl,
    ),
    DatasetSpec(
        name="cylinder",
        label="Cylinder",
        description="A cylinder, uniform in area; its unrolled chart is isometric but cut at a seam, "
                    "as the cylinder has no isometric embedding in the plane (its annulus chart is "
                    "conformal and seamless).",
        citation="GR §5, Table 1, Figs. 3 and 5",
        default_n=800,
        parameters=_with_stretch(
            Parameter("radius", "radius", "float", 1.0, low=0.1, high=10.0, help="Radius of the cylinder."),
            Parameter("height", "height", "float", 1.0, low=0.1, high=10.0, help="Height of the cylinder."),
            _chart_parameter(_CYLINDER_UNROLLED, _CYLINDER_ANNULUS),
        ),
        charts=(_CYLINDER_UNROLLED, _CYLINDER_ANNULUS),
        sample=surfaces.cylinder,
    ),
    DatasetSpec(
        name="strip",
        label="Strip",
        description="A flat L × 1 strip in R³, optionally thickened by noise normal to it; normalized-"
                    "output algorithms collapse it when L is large.",
        citation="PN §3, Fig. 1",
        default_n=1000,
        parameters=_with_stretch(
            Parameter("length", "length L", "float", 6.0, low=1.0, high=50.0,
                      help="Length of the strip; its width is 1."),
            Parameter("thickness", "thickness σ", "float", 0.0, low=0.0, high=1.0,
                      help="Standard deviation of Gaussian offsets normal to the strip (PN: 0.01)."),
        ),
        charts=(Chart("identity", ("u", "v"), isometric=True, conformal=True),),
        sample=surfaces.strip,
    ),
    DatasetSpec(
        name="grid",
        label="Grid",
        description="The integer lattice [-m..m] × [-q..q] in a plane; Laplacian eigenmaps keep 81 × 41 "
                    "two-dimensional and fold 81 × 39 into a curve.",
        citation="PN §4, Fig. 4",
        default_n=surfaces.grid_size(half_width=40, half_height=20),
        parameters=_with_stretch(
            Parameter("half_width", "half-width m", "int", 40, low=1, high=150,
                      help="The lattice has 2m + 1 columns (PN: 81, m = 40)."),
            Parameter("half_height", "half-height q", "int", 20, low=1, high=150,
                      help="The lattice has 2q + 1 rows (PN: 41 or 39, q = 20 or 19)."),
        ),
        charts=(Chart("identity", ("i", "j"), isometric=True, conformal=True),),
        sample=surfaces.grid,
        n_low=9,
        population=surfaces.grid_size,
    ),
    DatasetSpec(
        name="gaussian",
        label="Gaussian surface",
        description="The graph of a Gaussian bump over N(0, I₂) parameters; nearly isometric to them "
                    "(lengths stretch by at most 0.5 %).",
        citation="NQ §V, Table II, Fig. 4",
        default_n=1000,
        parameters=_with_stretch(),
        charts=(Chart("parameters", ("u₁", "u₂"), isometric=False, conformal=False),),
        sample=surfaces.gaussian_surface,
    ),
    DatasetSpec(
        name="three_peaks",
        label="Three peaks",
        description="A square with one bump and two dips (heights ±1) over uniform parameters; the chart "
                    "is far from isometric on the flanks.",
        citation="ML §5, Fig. 4",
        default_n=1225,
        parameters=_with_stretch(),
        charts=(Chart("parameters", ("t", "s"), isometric=False, conformal=False),),
        sample=surfaces.three_peaks,
    ),
    DatasetSpec(
        name="s_curve",
        label="S-curve",
        description="scikit-learn's S-shaped sheet: two half circles of radius 1 joined, 2 high; its "
                    "(angle, height) chart is isometric.",
        citation="scikit-learn make_s_curve",
        default_n=1000,
        parameters=_with_stretch(),
        charts=(Chart("parameters", ("angle t", "height"), isometric=True, conformal=True),),
        sample=surfaces.s_curve,
    ),
    DatasetSpec(
        name="digits",
        label="Handwritten digits",
        description="8 × 8 grey images of handwritten digits (64-D) from scikit-learn's bundled set, "
                    "filtered by class; no ground truth, coloured by class.",
        citation="ML Fig. 5 ('2'–'5'); GR Table 1 (twos); data: UCI via sklearn.datasets.load_digits",
        default_n=177,  # the '2's of load_digits (checked by the tests; avoids reading the file at import)
        parameters=_with_stretch(
            Parameter("classes", "classes", "choice", "2", choices=images.DIGIT_CLASSES,
                      help="Which digits to keep: one class (GR's twos) or a range (ML's '2-5')."),
        ),
        charts=(),
        sample=images.digits,
        n_low=10,
        population=images.digits_size,
        image_shape=lambda **params: (8, 8),
        color_label="digit class",
    ),
    DatasetSpec(
        name="globe",
        label="Globe images",
        description="Grey s × s images of a seeded, procedurally textured globe seen from 30 azimuths "
                    "(-45°..45°) × 30 elevations (-30°..60°); the truth is (azimuth, elevation).",
        citation="PN §5.5, Figs. 6C, 9 (images rendered here, not Hamm's photographs)",
        default_n=images.globe_size(image_size=32, elevation_rows=30),
        parameters=_with_stretch(
            Parameter("image_size", "image size s", "int", 32, low=8, high=64,
                      help="Each view is an s × s grey image (s² input dimensions)."),
            Parameter("elevation_rows", "elevations", "int", 30, low=2, high=30,
                      help="Elevations kept, the middle rows of 30: 30 is PN's 30 × 30 array, 10 their "
                           "30 × 10 strip."),
        ),
        charts=(Chart("angles", ("azimuth (°)", "elevation (°)"), isometric=False, conformal=False),),
        sample=images.globe,
        n_low=10,
        population=images.globe_size,
        image_shape=lambda *, image_size, **params: (image_size, image_size),
    ),
)

# Registered one by one: a name given twice in _SPECS is refused at import, not left to shadow the first.
_DATASETS = Registry("data set", DatasetError, _SPECS)


def spec(name):
    """The :class:`DatasetSpec` registered as ``name``.

    Raises
    ------
    DatasetError
        If no data set has that name; the message lists the available ones.
    """
    return _DATASETS.spec(name)


def specs():
    """All registered data-set specs, in registry order."""
    return _DATASETS.specs()


def available():
    """Names of all registered data sets, in registry order."""
    return _DATASETS.available()


def load(name: str, n: int | None = None, *, noise: float = 0.0,
         random_state: int | np.random.Generator = 0, **params) -> Dataset:
    """Draw a sample of a registered data set.

    Parameters
    ----------
    name : str
        Registry key, one of :func:`available`.
    n : int, optional
        Number of points, in ``[spec(name).n_low, spec(name).n_high]``; default
        ``spec(name).default_n`` (the paper's). For a finite set (``spec(name).population`` not
        None: grid, digits, globe) the set's own parameters fix how many points exist; ``n`` then
        keeps a seeded random subset of them, in the set's order, and the default keeps all. An
        ``n`` above the set's size keeps all, with a ``ProcrustesLabWarning`` saying so.
    noise : float, default=0.0
        Standard deviation σ >= 0 of isotropic Gaussian noise added to X (SPEC §1); the truth
        stays that of the noiseless points.
    random_state : int or numpy.random.Generator, default=0
        Seeds ``numpy.random.default_rng``; a Generator is used as it is and advanced.
    **params
        The set's own parameters (see ``spec(name).parameters``), ``chart`` where the set offers
        several, and ``stretch`` (factor c on the first input coordinate, SPEC §1; default 1);
        omitted or None means default.

    Returns
    -------
    Dataset
        ``params`` holds the values used, ``random_state`` included (an int as a plain int).

    Raises
    ------
    DatasetError
        On an unknown name, an unknown parameter (also a TypeError, as Python's own unexpected
        keyword is: the old ``seed=`` among them, now ``random_state=``), a value out of its declared
        range, a negative or non-finite noise, or a ``random_state`` that is not a non-negative int or
        a Generator.

    Notes
    -----
    The sampler's draws come first and the noise's after them, from the same Generator, so a seed
    fixes the clean sample whatever the noise. The noise is drawn even at σ = 0, so a Generator
    passed as ``random_state`` advances alike whatever σ, and for one seed changing σ scales a
    single perturbation ``σ ε`` instead of drawing a new one. The stretch multiplies the first
    column of the clean X before the noise is added (PN stretch the data, then nothing is added);
    the truth keeps the unstretched chart, so ``isometric`` and ``conformal`` are False for c != 1.

    Examples
    --------
    A seed fixes the sample; noise moves the points but not their truth:

    >>> import numpy as np
    >>> clean = load("swissroll", 400, random_state=1)
    >>> noisy = load("swissroll", 400, random_state=1, noise=0.1)
    >>> clean.X.shape, clean.truth.shape, noisy.params["noise"], noisy.params["random_state"]
    ((400, 3), (400, 2), 0.1, 1)
    >>> bool(np.array_equal(clean.truth, noisy.truth)), bool(np.array_equal(clean.X, noisy.X))
    (True, False)

    A finite set is whole by default; ``n`` keeps a subset:

    >>> load("grid", half_width=40, half_height=19).X.shape
    (3159, 3)
    >>> load("grid", 500, half_width=40, half_height=19).params["n"]
    500
    """
    entry = spec(name)
    values = validate_parameters(entry.all_parameters, {"n": n, "noise": noise, **params}, name, DatasetError)
    try:
        rng = check_random_state(random_state)
    except SeedError as error:
        raise DatasetError(f"{name}: random_state must be a non-negative int or a numpy.random.Generator; "
                           f"got {random_state!r}.") from error
    own = {parameter.name: values[parameter.name] for parameter in entry.parameters
           if parameter.name not in _MODIFIERS}
    size = values["n"]
    if entry.population is not None:
        available_points = entry.population(**{key: value for key, value in own.items() if key != "chart"})
        if n is None:
            size = available_points
        elif size > available_points:
            warnings.warn(f"{name}: n = {size} exceeds the {available_points} points these parameters give; "
                          f"all {available_points} are used.", ProcrustesLabWarning, stacklevel=2)
            size = available_points
    X, truth, *color = entry.sample(size, rng, **own)
    # In place, on the sampler's fresh array: at n = 10^6 every (n, q) temporary is 8q MB more.
    X = np.asarray(X, dtype=np.float64)
    X[:, 0] *= values["stretch"]
    perturbation = rng.standard_normal(X.shape)
    perturbation *= values["noise"]
    X += perturbation
    del perturbation
    chart = next((c for c in entry.charts if c.name == own.get("chart")), entry.charts[0] if entry.charts else None)
    color = np.asarray(color[0], dtype=np.float64) if color else truth[:, 0].copy()
    unstretched = values["stretch"] == 1.0
    return Dataset(
        X=X,
        truth=None if truth is None else np.asarray(truth, dtype=np.float64),
        color=color,
        name=name,
        description=entry.description,
        isometric=chart is not None and chart.isometric and unstretched,
        # An int seed is echoed as a plain int so that params can enter a cache key.
        params={**values, "n": int(X.shape[0]),
                "random_state": random_state if isinstance(random_state, np.random.Generator) else int(random_state)},
        conformal=chart is not None and chart.conformal and unstretched,
        truth_labels=chart.labels if chart is not None else (entry.color_label,),
        image_shape=None if entry.image_shape is None else tuple(entry.image_shape(**own)),
    )
