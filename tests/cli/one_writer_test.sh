#!/usr/bin/env bash
# Every subcommand prints through app/src/console/output.{hpp,cpp}: no other file of app/src writes to
# stdout or stderr with stdio, iostreams or fmt::print, so no text from outside can reach the
# terminal without the sanitizer.
#
#   one_writer_test.sh SOURCE_DIR
set -uo pipefail
SRC=${1:?usage: one_writer_test.sh SOURCE_DIR}/app/src
[[ -f $SRC/console/output.cpp ]] || { echo "FAIL: $SRC/console/output.cpp is missing"; exit 1; }

pattern='\b(printf|fprintf|vprintf|vfprintf|puts|fputs|putc|fputc|putchar|fwrite|perror)[[:space:]]*\(|std::(cout|cerr|clog)\b|fmt::print\b'
found=$(grep -rnE --include='*.cpp' --include='*.hpp' "$pattern" "$SRC" |
  grep -vE "^$SRC/console/output\.(cpp|hpp):")
if [[ -n $found ]]; then
  echo "FAIL: printing outside app/src/console/output.cpp (use out::print, out::eprint, out::json, …):"
  echo "$found"
  exit 1
fi
echo "ok: app/src prints only through output.cpp"
