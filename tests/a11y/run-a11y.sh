#!/bin/sh
# run-a11y.sh HEADROOM HEADROOM_CLI — tests/a11y/test-a11y.py under Xvfb, with a private
# session bus that starts the accessibility bus and the AT-SPI registry on demand.
# Exit 77 (skipped) without Xvfb, dbus-run-session or Debian's python3 with the AT-SPI bindings
# (python3-pyatspi; build-aux/dev installs it).
here=$(cd "$(dirname "$0")" && pwd)
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
for tool in xvfb-run dbus-run-session "$python"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "1..0 # SKIP $tool is missing"; exit 77; }
done
"$python" -c "import gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi" 2>/dev/null \
  || { echo "1..0 # SKIP no AT-SPI bindings (python3-pyatspi)"; exit 77; }
# The app needs its GSettings schema (meson test points GSETTINGS_SCHEMA_DIR at the build's
# data/; without it the app aborts at once) and must not have accessibility turned off.
unset GTK_A11Y NO_AT_BRIDGE
# TAP goes to fd 3 (this script's stdout): what the bus daemons print goes to stderr.
exec 3>&1
export HEADROOM_TAP_FD=3
exec xvfb-run -a -s "-screen 0 1280x800x24" \
  dbus-run-session -- "$python" "$here/test-a11y.py" "$1" "$2" >&2
