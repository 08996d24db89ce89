"""`python -m app ...`: the same commands as the `tabula` console script."""

from .cli import main

raise SystemExit(main())
