#!/bin/sh
# Check headroom-cli's manual page.
#
#   check-man.sh PAGE [HEADROOM_CLI]
#
# 1. groff renders PAGE with every warning on (-ww) and prints nothing on stderr.
#    Without groff the test is skipped (exit 77).
# 2. If HEADROOM_CLI exists, every command in `headroom-cli --help` and every option that
#    `headroom-cli COMMAND --help-all` (or --help) mentions appears in the page, so the page
#    cannot fall behind the program.

set -u

page=$1
cli=${2:-}
status=0

if ! command -v groff >/dev/null 2>&1; then
  echo "groff is not installed; skipping"
  exit 77
fi

# groff exits 0 even when it warns: any output on stderr is the failure.
warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1 >/dev/null)
if [ -n "$warnings" ]; then
  echo "FAIL: groff warns about $page:" >&2
  echo "$warnings" | sed 's/^/    /' >&2
  status=1
else
  echo "groff -man -Tutf8 -ww: no warnings"
fi
if command -v man >/dev/null 2>&1; then
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  if [ -n "$warnings" ]; then
    echo "FAIL: man -l warns about $page:" >&2
    echo "$warnings" | sed 's/^/    /' >&2
    status=1
  else
    echo "man --warnings -l: no warnings"
  fi
fi

if [ -z "$cli" ] || [ ! -x "$cli" ]; then
  echo "headroom-cli not built; not comparing the page with its --help"
  exit $status
fi

# The page as plain text, hyphenation and adjustment off, so options are whole words.
text=$(printf '.nh\n.ad l\n' | cat - "$page" | LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou 2>/dev/null)

# Commands: the lines under "Commands:" in the top-level help.
commands=$("$cli" --help 2>/dev/null | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
if [ -z "$commands" ]; then
  echo "FAIL: could not read the commands from $cli --help" >&2
  exit 1
fi

for cmd in $commands; do
  echo "$text" | grep -Eq "headroom-cli $cmd( |\$)" \
    || { echo "FAIL: command '$cmd' is not in the synopsis of $page" >&2; status=1; }
  # Every --option the command's help mentions (GOption's --help-all, or the command's own
  # --help text where it has one).
  help=$(LC_ALL=C "$cli" "$cmd" --help-all 2>/dev/null) || help=$(LC_ALL=C "$cli" "$cmd" --help 2>&1)
  options=$(echo "$help" | grep -Eo -- '--[a-z][a-z0-9-]*' | sort -u)
  [ -n "$options" ] || { echo "FAIL: no options in '$cmd --help'" >&2; status=1; }
  for opt in $options; do
    case "$opt" in
      --help|--help-all|--help-*) continue ;;
    esac
    echo "$text" | grep -Eq -- "${opt}([^a-z0-9-]|\$)" \
      || { echo "FAIL: $cmd's option $opt is not in $page" >&2; status=1; }
  done
done

# Every engine in the engine table (`list engines`, first column) is named where the page
# describes the --engine option.
engines=$("$cli" list engines 2>/dev/null | awk 'NF { print $1 }')
[ -n "$engines" ] || { echo "FAIL: could not read the engines from $cli list engines" >&2; status=1; }
engine_para=$(echo "$text" | awk '/^ *--engine E *$/ { keep = 1; next } keep && /^ *$/ { exit } keep { print }')
[ -n "$engine_para" ] || { echo "FAIL: $page has no --engine E paragraph" >&2; status=1; }
for engine in $engines; do
  echo "$engine_para" | grep -Fq -- "$engine" \
    || { echo "FAIL: engine '$engine' is not listed under --engine in $page" >&2; status=1; }
done

[ $status -eq 0 ] && echo "every command, option and engine of $(basename "$cli") is documented"
exit $status
