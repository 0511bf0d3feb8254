"""``python -m lab evaluate INPUT OUTPUT… -k K`` and ``python -m lab run DATASET ALGORITHM -k K``
(:func:`lab.compute.commands.main`)."""

from .compute.commands import main

raise SystemExit(main())
