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
unset GTK_A11Y NO_AT_BRIDGE
exec xvfb-run -a -s "-screen 0 1280x800x24" \
  dbus-run-session -- "$python" "$here/test-a11y.py" "$1" "$2"
