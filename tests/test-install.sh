#!/bin/sh
# Install the build into a temporary DESTDIR and check that every file a distribution
# needs lands where it belongs.  TAP output.
#
#   test-install.sh MESON BUILD_DIR GUI(true|false) APP_ID PO_DIR BINDIR DATADIR MANDIR LOCALEDIR
#
# BINDIR etc. are the absolute install paths (prefix included), as meson computes them.

set -u

if [ $# -ne 9 ]; then
  echo "Bail out! usage: test-install.sh MESON BUILD_DIR GUI APP_ID PO_DIR BINDIR DATADIR MANDIR LOCALEDIR"
  exit 1
fi
meson=$1 build_dir=$2 gui=$3 app_id=$4 po_dir=$5
bindir=$6 datadir=$7 mandir=$8 localedir=$9

destdir=$(mktemp -d "${TMPDIR:-/tmp}/hr-install.XXXXXX") || exit 1
trap 'rm -rf "$destdir"' EXIT INT TERM

n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check () {   # check DESCRIPTION TEST-ARGS...
  what=$1; shift
  if test "$@"; then ok "$what"; else not_ok "$what"; fi
}

# --no-rebuild: `meson test` has already built what the test depends on.  The post-install
# scripts (schema compilation, icon cache) skip themselves when DESTDIR is set.
if "$meson" install -C "$build_dir" --no-rebuild --destdir "$destdir" >"$destdir.log" 2>&1; then
  ok "meson install --destdir"
  rm -f "$destdir.log"
else
  not_ok "meson install --destdir"
  sed 's/^/# /' "$destdir.log"
  rm -f "$destdir.log"
  echo "1..$n"
  exit 1
fi

root=$destdir
check "$bindir/headroom-cli is installed and executable" -x "$root$bindir/headroom-cli"
check "$mandir/man1/headroom-cli.1 is installed" -f "$root$mandir/man1/headroom-cli.1"

linguas=$(sed -e 's/#.*//' "$po_dir/LINGUAS" | tr -s ' \t' '\n\n' | sed '/^$/d')
for lang in $linguas; do
  check "$localedir/$lang/LC_MESSAGES/headroom.mo is installed" \
    -f "$root$localedir/$lang/LC_MESSAGES/headroom.mo"
done

desktop="$datadir/applications/$app_id.desktop"
metainfo="$datadir/metainfo/$app_id.metainfo.xml"
icon="$datadir/icons/hicolor/scalable/apps/$app_id.svg"
symbolic="$datadir/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
schema="$datadir/glib-2.0/schemas/$app_id.gschema.xml"

if [ "$gui" = true ]; then
  check "$bindir/headroom is installed and executable" -x "$root$bindir/headroom"
  check "$desktop is installed" -f "$root$desktop"
  check "$metainfo is installed" -f "$root$metainfo"
  check "$icon is installed" -f "$root$icon"
  check "$symbolic is installed" -f "$root$symbolic"
  check "$schema is installed" -f "$root$schema"
  if [ -f "$root$desktop" ]; then
    exec_line=$(sed -n 's/^Exec=//p' "$root$desktop" | head -n 1)
    check "the desktop file runs an installed program (Exec=$exec_line)" \
      -x "$root$bindir/${exec_line%% *}"
  fi
  if [ -f "$root$metainfo" ]; then
    if grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$root$metainfo"; then
      ok "the metainfo launches $app_id.desktop"
    else
      not_ok "the metainfo launches $app_id.desktop"
    fi
  fi
else
  # Without the GUI nothing may point at a program that is not there.
  check "no $bindir/headroom without the GUI" ! -e "$root$bindir/headroom"
  check "no desktop file without the GUI" ! -e "$root$desktop"
  check "no metainfo without the GUI" ! -e "$root$metainfo"
  check "no app icon without the GUI" ! -e "$root$icon"
fi

# Post-install scripts must not have written into DESTDIR.
check "no gschemas.compiled in DESTDIR" ! -e "$root$datadir/glib-2.0/schemas/gschemas.compiled"
check "no icon-theme.cache in DESTDIR" ! -e "$root$datadir/icons/hicolor/icon-theme.cache"

echo "# installed files:"
(cd "$root" && find . -type f | sort | sed 's/^\./# /')
echo "1..$n"
exit $failed
