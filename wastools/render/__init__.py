"""Rendering: card faces (jinja2 + WeasyPrint), sheet imposition and PDF finishing."""
