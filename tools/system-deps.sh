#!/usr/bin/env bash
# Installs the Debian libraries WeasyPrint needs (Pango, HarfBuzz, fontconfig) when
# they are missing. Idempotent: does nothing on a machine that already has them.
set -euo pipefail

needed=()
have_lib() { ldconfig -p 2>/dev/null | grep -q "$1"; }
have_lib 'libpango-1.0.so.0' || needed+=(libpango-1.0-0)
have_lib 'libpangoft2-1.0.so.0' || needed+=(libpangoft2-1.0-0)
have_lib 'libharfbuzz.so.0' || needed+=(libharfbuzz0b)
have_lib 'libfontconfig.so.1' || needed+=(libfontconfig1)
have_lib 'libharfbuzz-subset.so.0' || needed+=(libharfbuzz-subset0)  # WeasyPrint's font subsetting
python3 -c 'import venv, ensurepip' 2>/dev/null || needed+=(python3-venv)
# The site's browser tests drive Debian's headless Chromium (never a downloaded browser).
[ -x /usr/bin/chromium ] || needed+=(chromium)
[ -x /usr/bin/chromedriver ] || needed+=(chromium-driver)

if [ ${#needed[@]} -eq 0 ]; then
    exit 0
fi
echo "installing Debian packages: ${needed[*]}"
if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
else
    SUDO=
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${needed[@]}"
