"""The view's state as a URL query string, so a link reproduces a view (no Dash here).

Keys: ``dataset``, ``n``, ``noise``, ``seed``, ``algorithm``, ``k``, ``refine``, ``rescale``,
``color``, ``view`` (the input view), ``tab``, the normalization tab's ``norm.shape``, ``norm.aspect``,
``norm.n`` and ``norm.k``, and one
``d.<name>`` / ``a.<name>`` per data-set / algorithm parameter. Whole numbers come back as ints,
other numbers as floats, anything else as text; the libraries validate the values as usual.
"""

import urllib.parse

__all__ = ["encode_state", "decode_state", "owned_parameters"]


def encode_state(state):
    """``?key=value&...`` for a flat dict, keys sorted, ``None`` values left out.

    Examples
    --------
    >>> encode_state({"k": 10, "dataset": "swissroll", "d.length": 6.5, "noise": None})
    '?d.length=6.5&dataset=swissroll&k=10'
    """
    pairs = [(key, repr(value) if isinstance(value, float) else str(value))
             for key, value in sorted(state.items()) if value is not None]
    return "?" + urllib.parse.urlencode(pairs)


def decode_state(search):
    """The dict :func:`encode_state` wrote, numbers parsed back; no query gives ``{}``.

    Examples
    --------
    >>> decode_state("?d.length=6.5&dataset=swissroll&k=10")
    {'d.length': 6.5, 'dataset': 'swissroll', 'k': 10}
    """
    return {key: _value(text) for key, text in urllib.parse.parse_qsl((search or "").lstrip("?"))}


def owned_parameters(state, prefix):
    """The parameters a state holds under ``prefix`` ("d" for the data set, "a" for the algorithm).

    Examples
    --------
    >>> owned_parameters({"d.length": 6.5, "a.reg": 0.01, "k": 10}, "d")
    {'length': 6.5}
    """
    start = f"{prefix}."
    return {key[len(start):]: value for key, value in state.items() if key.startswith(start)}


def _value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
