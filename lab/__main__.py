"""``python -m lab evaluate INPUT OUTPUT… -k K`` (:func:`lab.compute.judge.main`)."""

from .compute.judge import main

raise SystemExit(main())
