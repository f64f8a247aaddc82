"""``python -m device.lab ...``: :mod:`device.lab.cli` from a checkout (what ``jantaku-lab`` runs once installed)."""

import sys

from device.lab.cli import main

sys.exit(main())
