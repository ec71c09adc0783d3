"""What every worker process of a build needs, imported once by the build's fork server.

The build's workers are forked from a server process that imported this module (see
``build.WorkerPool``), so each starts with WeasyPrint, pikepdf, ReportLab and the build's jobs
already imported and WeasyPrint's C types already parsed: about a second of CPU that each
worker paid for itself when it was forked from the main process, before the main process
had imported any of it. Importing this module has that one effect.
"""

from __future__ import annotations

import pikepdf  # noqa: F401
from reportlab.pdfgen import canvas  # noqa: F401
from weasyprint import HTML

from .. import build  # noqa: F401  (the module of every job's function)

# a first layout and PDF make cffi parse the C types WeasyPrint uses (a third of a second).
# No @font-face: no folder of fonts is made here, for the forked workers to share.
HTML(string="<p>Range <b>4</b> <i>dice</i></p><svg width='8' height='8'><circle r='3'/></svg>").write_pdf()
