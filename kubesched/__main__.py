"""``python -m kubesched``: see kubesched.cli.main."""

from __future__ import annotations

import sys

from kubesched.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
