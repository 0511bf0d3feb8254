"""Sixteen-bit fixed point: the page's views carry their points' coordinates and colours in half of float32's bytes.

A column of values v goes to the browser as Plotly's typed-array spec ``{"dtype": "u2", "bdata": ...}`` with two
keys of ours, ``offset`` and ``step``: the codes

.. math:: c_i = \\operatorname{round}((v_i - \\min v) / s), \\qquad s = (\\max v - \\min v) / 65534,

and code 65535 for a value that is not finite. The page decodes :math:`v_i \\approx \\min v + s\\, c_i` before
Plotly draws it (``assets/drawn_rows.js``, ``column``; ``assets/fixed_point.js``): an error of at most s / 2,
a 131 068th of the column's range. The values sit on a grid of 65 535 levels: 65 to a pixel of a 1 000-pixel
axis, and still one to a pixel zoomed in 65 times. Float32's low bits are about random, so compression left a
20 000-point output view with 154 KB of coordinates; the codes take 80 (issue 24).

The hover states the precision it carries: :func:`carried_format` gives the decimals the step resolves (the
last one within one unit), where float32 gave four significant digits.
"""

import base64
import math

import numpy as np

__all__ = ["LARGEST_CODE", "NOT_FINITE", "carried_format", "decode", "encode"]

LARGEST_CODE = 65534
NOT_FINITE = 65535
# A constant column travels exactly (every code 0, step 0): its hover keeps the exact format.
EXACT_FORMAT = ".4g"


def _range(values):
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return 0.0, 0.0
    return float(finite.min()), float(finite.max())


def _step(low, high):
    return (high - low) / LARGEST_CODE


def encode(values):
    """``values`` as 16-bit fixed point: Plotly's typed-array spec of the codes, with ``offset`` and ``step``.

    Parameters
    ----------
    values : array_like of shape (n,)

    Returns
    -------
    dict
        ``{"dtype": "u2", "bdata": <base64 of the little-endian codes>, "offset": min, "step": s}``.

    Examples
    --------
    >>> spec = encode([0.0, 0.5, 1.0, np.nan])
    >>> decode(spec).tolist()[:3], spec["step"] == 1 / 65534, bool(np.isnan(decode(spec)[3]))
    ([0.0, 0.5, 1.0], True, True)
    """
    values = np.asarray(values, dtype=np.float64).ravel()
    low, high = _range(values)
    step = _step(low, high)
    finite = np.isfinite(values)
    codes = np.full(values.shape, NOT_FINITE, dtype="<u2")
    if step > 0:
        codes[finite] = np.rint((values[finite] - low) / step)
    else:
        codes[finite] = 0
    return {"dtype": "u2", "bdata": base64.b64encode(codes.tobytes()).decode("ascii"), "offset": low, "step": step}


def decode(spec):
    """The values a spec from :func:`encode` carries, as the page decodes them (``assets/drawn_rows.js``)."""
    codes = np.frombuffer(base64.b64decode(spec["bdata"]), dtype="<u2")
    values = spec["offset"] + spec["step"] * codes.astype(np.float64)
    values[codes == NOT_FINITE] = np.nan
    return values


def carried_format(values):
    """The d3 format of ``values`` once encoded: as many decimals as the step resolves, at least none.

    A step s rounds each value within s / 2; shown to ``d = floor(-log10 s)`` decimals, the value shown is then
    within one unit of the last decimal of the exact value. A step above one (a range above 65 534) shows
    integers, within one step.

    Examples
    --------
    >>> carried_format([0.0, 1.0]), carried_format([-20.0, 20.0]), carried_format([0.0, 1e6]), carried_format([3.0])
    ('.4f', '.3f', '.0f', '.4g')
    """
    low, high = _range(np.asarray(values, dtype=np.float64).ravel())
    step = _step(low, high)
    if step <= 0:
        return EXACT_FORMAT
    return f".{max(0, math.floor(-math.log10(step)))}f"
