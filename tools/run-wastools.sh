#!/usr/bin/env bash
# Runs wastools for the pre-commit hooks: the one on PATH (pip install, pipx, an active
# virtual environment), else the checkout's .venv from `make`.
set -euo pipefail
if command -v wastools >/dev/null 2>&1; then
    exec wastools "$@"
fi
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ -x "$here/.venv/bin/wastools" ]; then
    exec "$here/.venv/bin/wastools" "$@"
fi
echo "wastools is not installed: run \`make build\` (or \`pip install .\`) first" >&2
exit 1
