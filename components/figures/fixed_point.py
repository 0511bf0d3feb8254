"""Sixteen-bit fixed point: the page's views carry their points' coordinates and colours in half of float32's bytes.

A column of values v goes to the browser as Plotly's typed-array spec ``{"dtype": "u2", "bdata": ...}`` with two
keys of ours, ``offset`` and ``step``: the codes

.. math:: c_i = \\operatorname{round}((v_i - \\min v) / s), \\qquad s = (\\max v - \\min v) / 65534,

and code 65535 for a value that is not finite. The page decodes :math:`v_i \\approx \\min v + s\\, c_i` before
Plotly draws it (``assets/drawn_rows.js``, ``column``; ``assets/plotly_page.js``): an error of at most s / 2,
a 131 068th of the column's range. The values sit on a grid of 65 535 levels: 65 to a pixel of a 1 000-pixel
axis, and still one to a pixel zoomed in 65 times. Float32's low bits are about random, so compression left a
20 000-point output view with 154 KB of coordinates; the codes take 80 (issue 24).

The hover states the precision it carries: :func:`carried_format` gives the decimals the step resolves (the
last one within one unit), where float32 gave four significant digits.
"""

import base64
import math

import numpy as np

__all__ = ["BULK_LEVELS", "LARGEST_CODE", "NOT_FINITE", "carried_format", "decode", "encode", "sent_format"]

LARGEST_CODE = 65534
NOT_FINITE = 65535
# A column is sent as float32 instead (and its hover keeps four significant digits, EXACT_FORMAT) unless the
# bulk of its values, the 2nd to 98th percentile as the colour range, spans BULK_LEVELS codes: a few far points
# (an LLE output's, SPEC §0's short-circuited neighbourhood) would leave the bulk a coarse grid, seen as soon
# as a user zooms on it. 16 384 levels keep 16 to a pixel of a 1 000-pixel view of the bulk.
BULK_LEVELS = 16_384
EXACT_FORMAT = ".4g"
# A step float64 resolves at the values' magnitude with room to spare, and d3 shows (at most 20 decimals).
_RESOLVED = 2.0 ** -40
_SMALLEST_STEP = 1e-20


def _grid(values):
    """``(offset, step)`` of a column's codes, or None when fixed point cannot carry it as the page needs.

    A constant column has step 0 and an integral one whose range is at most 65 534 step 1: both exact.
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return 0.0, 0.0
    low, high = float(finite.min()), float(finite.max())
    if low == high:
        return low, 0.0
    if high - low <= LARGEST_CODE and np.array_equal(finite, np.round(finite)):
        return low, 1.0
    step = (high - low) / LARGEST_CODE
    if not (math.isfinite(step) and step >= _SMALLEST_STEP and step >= _RESOLVED * max(abs(low), abs(high))):
        return None
    bottom, top = np.percentile(finite, [2.0, 98.0])
    return (low, step) if top - bottom >= BULK_LEVELS * step else None


def encode(values):
    """``values`` as 16-bit fixed point: Plotly's typed-array spec of the codes, with ``offset`` and ``step``; None
    when fixed point cannot carry them (the caller sends float32).

    Parameters
    ----------
    values : array_like of shape (n,)

    Returns
    -------
    dict or None
        ``{"dtype": "u2", "bdata": <base64 of the little-endian codes>, "offset": min, "step": s}``.

    Examples
    --------
    >>> spec = encode([0.0, 0.5, 1.0, np.nan])
    >>> decode(spec).tolist()[:3], spec["step"] == 1 / 65534, bool(np.isnan(decode(spec)[3]))
    ([0.0, 0.5, 1.0], True, True)
    >>> encode([1990.0, 2001.0])["step"], encode(np.r_[np.linspace(0.0, 1.0, 99), 1e5]) is None
    (1.0, True)
    """
    values = np.asarray(values, dtype=np.float64).ravel()
    grid = _grid(values)
    if grid is None:
        return None
    low, step = grid
    finite = np.isfinite(values)
    codes = np.full(values.shape, NOT_FINITE, dtype="<u2")
    codes[finite] = np.rint((values[finite] - low) / step) if step > 0 else 0
    return {"dtype": "u2", "bdata": base64.b64encode(codes.tobytes()).decode("ascii"), "offset": low, "step": step}


def decode(spec):
    """The values a spec from :func:`encode` carries, as the page decodes them (``assets/drawn_rows.js``)."""
    codes = np.frombuffer(base64.b64decode(spec["bdata"]), dtype="<u2")
    values = spec["offset"] + spec["step"] * codes.astype(np.float64)
    values[codes == NOT_FINITE] = np.nan
    return values


def _format(step):
    return EXACT_FORMAT if step == 0 else f".{max(0, math.floor(-math.log10(step)))}f"


def carried_format(values):
    """The d3 format of ``values`` as the page's views send them: as many decimals as fixed point's step resolves.

    A step s rounds each value within s / 2; shown to ``d = floor(-log10 s)`` decimals, the value shown is then
    within one unit of the last decimal of the exact value. A step above one (a range above 65 534) shows
    integers, within one step; an integral column, exact, none. A constant column, or one sent as float32
    (:func:`encode` gives None), keeps four significant digits.

    Examples
    --------
    >>> carried_format([0.0, 0.5, 1.0]), carried_format([-20.0, 0.5, 20.0]), carried_format([0.0, 1e6 + 0.5])
    ('.4f', '.3f', '.0f')
    >>> carried_format([3.0]), carried_format([1990.0, 2020.0])
    ('.4g', '.0f')
    """
    grid = _grid(np.asarray(values, dtype=np.float64).ravel())
    return EXACT_FORMAT if grid is None else _format(grid[1])


def sent_format(column):
    """:func:`carried_format` of a column already sent: a spec from :func:`encode` (its step read, the values not
    searched again), or float32 values (four significant digits)."""
    return _format(column["step"]) if isinstance(column, dict) else EXACT_FORMAT
