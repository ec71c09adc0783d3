"""Rendering: card faces (jinja2 + WeasyPrint), sheet imposition and PDF finishing."""

import mimetypes

# Never read the system's MIME tables (/etc/mime.types and friends): rendering reads only
# the project's own files. Python's built-in table is enough for CSS and fonts.
mimetypes.knownfiles = []
