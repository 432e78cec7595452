#!/bin/sh
# Check the translations in po/.
#
#   check-po.sh [--require-complete] PO_DIR
#
# Always: every language in LINGUAS has a .po file and every .po file is listed, every file
# named in POTFILES.in exists, and `msgfmt --check --statistics` accepts each .po file (format
# strings, header, plural forms).
#
# With --require-complete (or HEADROOM_PO_REQUIRE_COMPLETE=1 in the environment) a fresh
# template is extracted from POTFILES.in with the same keywords as meson's 'glib' preset, each
# .po file is merged against it, and any untranslated or fuzzy message is an error.  Merging
# against a fresh template (rather than trusting the .po file's own counts) catches strings
# that were added to the code after the .po file was last updated.

set -u

require_complete=0
case "${HEADROOM_PO_REQUIRE_COMPLETE:-0}" in
  1|yes|true) require_complete=1 ;;
esac

while [ $# -gt 0 ]; do
  case "$1" in
    --require-complete) require_complete=1; shift ;;
    --) shift; break ;;
    -*) echo "check-po.sh: unknown option '$1'" >&2; exit 2 ;;
    *) break ;;
  esac
done

if [ $# -ne 1 ]; then
  echo "usage: check-po.sh [--require-complete] PO_DIR" >&2
  exit 2
fi

po_dir=$1
src_dir=$(cd "$po_dir/.." && pwd)
status=0

fail () {
  echo "FAIL: $*" >&2
  status=1
}

for tool in msgfmt; do
  command -v "$tool" >/dev/null 2>&1 || { echo "check-po.sh: $tool not found" >&2; exit 1; }
done

[ -f "$po_dir/LINGUAS" ] || { echo "check-po.sh: $po_dir/LINGUAS missing" >&2; exit 1; }
[ -f "$po_dir/POTFILES.in" ] || { echo "check-po.sh: $po_dir/POTFILES.in missing" >&2; exit 1; }

# LINGUAS may hold several languages per line and '#' comments.
linguas=$(sed -e 's/#.*//' "$po_dir/LINGUAS" | tr -s ' \t' '\n\n' | sed '/^$/d')

for lang in $linguas; do
  [ -f "$po_dir/$lang.po" ] || fail "$lang is listed in LINGUAS but $lang.po does not exist"
done
for po in "$po_dir"/*.po; do
  [ -e "$po" ] || continue
  lang=$(basename "$po" .po)
  echo "$linguas" | grep -qx "$lang" || fail "$lang.po exists but $lang is not listed in LINGUAS"
done

potfiles=$(sed -e 's/#.*//' -e 's/[ \t]*$//' "$po_dir/POTFILES.in" | sed '/^$/d')
for f in $potfiles; do
  [ -f "$src_dir/$f" ] || fail "POTFILES.in names $f, which does not exist"
done

# Template for --require-complete, extracted once.
pot=
tmp_dir=
if [ "$require_complete" = 1 ]; then
  for tool in xgettext msgmerge; do
    command -v "$tool" >/dev/null 2>&1 || { echo "check-po.sh: $tool not found" >&2; exit 1; }
  done
  tmp_dir=$(mktemp -d)
  trap 'rm -rf "$tmp_dir"' EXIT
  pot="$tmp_dir/headroom.pot"
  # Same arguments as meson's i18n.gettext(preset: 'glib').
  if ! (cd "$src_dir" && xgettext --package-name=headroom --output="$pot" \
          --files-from=po/POTFILES.in --directory="$src_dir" \
          --from-code=UTF-8 --add-comments \
          --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
          --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
          --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
          --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
          --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
          --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
          --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
          --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
          --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format); then
    echo "check-po.sh: xgettext failed" >&2
    exit 1
  fi
fi

for lang in $linguas; do
  po="$po_dir/$lang.po"
  [ -f "$po" ] || continue

  # msgfmt prints its statistics on stderr, together with any error.
  if ! out=$(LC_ALL=C msgfmt --check --statistics --output-file=/dev/null "$po" 2>&1); then
    fail "$lang.po: msgfmt --check rejected it:"
    echo "$out" | sed 's/^/    /' >&2
    continue
  fi
  echo "$lang: $out"

  if [ "$require_complete" = 1 ]; then
    merged="$tmp_dir/$lang.po"
    if ! LC_ALL=C msgmerge --quiet --no-fuzzy-matching --output-file="$merged" "$po" "$pot" 2>"$tmp_dir/err"; then
      fail "$lang.po: msgmerge failed: $(cat "$tmp_dir/err")"
      continue
    fi
    if ! out=$(LC_ALL=C msgfmt --check --statistics --output-file=/dev/null "$merged" 2>&1); then
      fail "$lang.po: does not check against the current template:"
      echo "$out" | sed 's/^/    /' >&2
      continue
    fi
    # "N translated messages[, M fuzzy translations][, K untranslated messages]."
    case "$out" in
      *fuzzy*|*untranslated*) fail "$lang.po is incomplete against the current template: $out" ;;
      *) echo "$lang: complete ($out)" ;;
    esac
  fi
done

exit $status
