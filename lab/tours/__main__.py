"""``python -m lab.tours prepare [TOUR|STEP …] [--cache-dir DIR]`` (:func:`lab.tours.prepare.main`)."""

from .prepare import main

raise SystemExit(main())
