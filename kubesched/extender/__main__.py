"""``python -m kubesched.extender``: same as ``python -m kubesched.extender.sample``.

Upstream: none.
"""

import sys

from kubesched.extender.sample import main

sys.exit(main())
