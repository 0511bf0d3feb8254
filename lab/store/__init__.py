"""The lowest room of ``lab``: bytes kept on disk or shared, and what is stored in them.

- :mod:`lab.store.stores`: the byte stores (a folder, or a shared server) with their locks;
- :mod:`lab.store.serialization`: results and sealed files as bytes, and back;
- :mod:`lab.store.cache`: :class:`~lab.store.cache.ResultCache` and the one
  :func:`~lab.store.cache.cache_key`, with the code version that keys every result;
- :mod:`lab.store.uploads`: uploaded files, private to their session.

It imports no other room of ``lab``.
"""
