"""The one lookup helper behind the libraries' registries: data sets, algorithms and measures.

Each library keeps its own entries (:class:`datasets.DatasetSpec`, :class:`algorithms.AlgorithmSpec`,
:class:`MeasureSpec`) in a :class:`Registry` and answers ``spec``, ``specs`` and ``available`` through
it, so that the three agree on what an unknown name raises and on what registering one twice does.
It lives in ``measures`` because that is the base both other libraries already import (measures
imports neither of them).
"""

import reprlib

__all__ = ["Registry"]


class Registry:
    """Entries looked up by their ``name``, in registration order.

    Parameters
    ----------
    kind : str
        What an entry is, as the messages name it (``"data set"``, ``"algorithm"``, ``"measure"``).
    error : type of Exception
        Raised by :meth:`spec` for a name not registered: each library's own typed error
        (``DatasetError``, ``EmbeddingError``, ``MeasureError``), so that a caller catches one type
        for every bad request.
    entries : iterable, optional
        Entries to :meth:`register` at once, in order (a registry written as one literal).

    Examples
    --------
    >>> import collections
    >>> Shape = collections.namedtuple("Shape", "name corners")
    >>> shapes = Registry("shape", LookupError)
    >>> shapes.register(Shape("triangle", 3))
    Shape(name='triangle', corners=3)
    >>> _ = shapes.register(Shape("square", 4))
    >>> shapes.available()
    ['triangle', 'square']
    >>> shapes.spec("square").corners
    4
    >>> "square" in shapes, "circle" in shapes, ["square"] in shapes
    (True, False, False)
    >>> shapes.spec("circle")
    Traceback (most recent call last):
        ...
    LookupError: unknown shape 'circle'; available: triangle, square.
    >>> shapes.register(Shape("square", 5))
    Traceback (most recent call last):
        ...
    ValueError: shape 'square' is registered twice
    """

    def __init__(self, kind, error, entries=()):
        self.kind = kind
        self.error = error
        # A dict keeps insertion order: available() and specs() list the entries as they were registered,
        # which is the order the dashboard's menus and the sweeps' tables show.
        self._entries = {}
        for entry in entries:
            self.register(entry)

    def register(self, entry):
        """Add ``entry`` under ``entry.name`` and return it (so that it can be used as an expression).

        Raises
        ------
        ValueError
            If the name is taken: a second entry would silently replace the first, and the menus built
            from the first would then run the second.
        """
        if entry.name in self._entries:
            raise ValueError(f"{self.kind} {entry.name!r} is registered twice")
        self._entries[entry.name] = entry
        return entry

    def spec(self, name):
        """The entry registered as ``name``.

        Raises
        ------
        error
            The registry's ``error`` if no entry has that name; the message lists the available ones.
            A name that cannot be a key at all (a list or a dict from a JSON request) raises it too,
            not ``TypeError``: it is the same mistake, an unknown name.
        """
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            # from None: the KeyError adds nothing to the message, which names the request and the choices.
            # reprlib: a forged name of megabytes is named by its first characters, not echoed whole.
            raise self.error(f"unknown {self.kind} {reprlib.repr(name)}; available: "
                             f"{', '.join(self.available())}.") from None

    def specs(self):
        """All entries, in registration order (a new list: changing it changes no registry)."""
        return list(self._entries.values())

    def available(self):
        """The names of all entries, in registration order (a new list)."""
        return list(self._entries)

    def __contains__(self, name):
        """Whether ``name`` is registered; False, not ``TypeError``, for a name that cannot be a key."""
        try:
            return name in self._entries
        except TypeError:
            return False

    def __repr__(self):
        return f"Registry({self.kind!r}, {self.error.__name__}: {len(self._entries)} entries)"
