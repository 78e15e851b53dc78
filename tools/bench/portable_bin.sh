#!/bin/bash
# Makes programs built here run on a machine whose libraries differ (a GPU
# machine running CUDA's image need not hold Abseil, Boost or this C
# library): each program goes to OUT_DIR/libexec, every shared library it
# loads to OUT_DIR/lib, the C library and its loader included, and OUT_DIR/bin
# gets a script of the program's name that runs it through that loader on
# those libraries alone. Only the kernel is the other machine's. A program
# run so sees the loader as /proc/self/exe: wallgo-gui, which finds its page
# through it, cannot be bundled; the engine and the referee can.
#
#   tools/bench/portable_bin.sh BIN_DIR OUT_DIR PROGRAM...
#   tools/bench/portable_bin.sh build-device/bin build-device/portable wallgo wallgo-referee
#
# Build BIN_DIR for any x86-64 with AVX2 first (-DWALLGO_NATIVE=OFF
# -DCMAKE_CXX_FLAGS=-march=x86-64-v3): -march=native may use what the other
# CPU lacks.
set -eu
src=$1
out=$2
shift 2
[ $# -gt 0 ] || { echo "portable_bin.sh: name at least one program" >&2; exit 1; }
# An earlier bundle is replaced; anything else there is left alone.
if [ -e "$out" ] && [ ! -f "$out/commit" ]; then
  echo "portable_bin.sh: $out exists and is not a bundle" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/libexec"
loader=
for program in "$@"; do
  [ -x "$src/$program" ] || { echo "portable_bin.sh: no $src/$program" >&2; exit 1; }
  cp "$src/$program" "$out/libexec/"
  # ldd's lines: "name => /path (address)" or "/path/to/ld-linux... (address)".
  while read -r path; do
    cp -L "$path" "$out/lib/$(basename "$path")"
    case $path in */ld-linux*) loader=$(basename "$path") ;; esac
  done < <(ldd "$src/$program" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
  cat >"$out/bin/$program" <<EOF
#!/bin/sh
here=\$(dirname "\$(readlink -f "\$0")")/..
exec "\$here/lib/$loader" --library-path "\$here/lib" "\$here/libexec/$program" "\$@"
EOF
  chmod +x "$out/bin/$program"
done
[ -n "$loader" ] || { echo "portable_bin.sh: ldd named no loader" >&2; exit 1; }
# Which build this is, for the figures made with it (device_threads.sh): the
# commit of the sources BIN_DIR's build was configured from.
source=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$src/../CMakeCache.txt" 2>/dev/null || true)
git -C "${source:-$src}" describe --always --dirty >"$out/commit" 2>/dev/null ||
  echo unknown >"$out/commit"
