#!/bin/sh
# Builds the engine for WebAssembly with Debian's emscripten (docs/web.md):
#   tools/web/build.sh [OUT]
# OUT (default build-web/site) receives the site: index.html at its top (the
# players' board: wallgo-gui's page on the GUI's bridge in a Web Worker),
# and the engine's package folder, engine/ (package.json, whose `bin` is the
# Node runner; console.html, a protocol console on it). The site a release
# hosts is OUT without engine/: the board runs its own builds, and the
# engine is the npm package. The last line printed is OUT.
#
# Abseil for wasm is built from Debian's own source package (apt-get source
# with a private deb-src list, so the system's apt set-up is left alone) and
# kept in a cache outside the source tree, keyed by the Abseil version, the
# emscripten version and the flags: WALLGO_WEB_CACHE, default
# ~/.cache/wallgo-web. Only the Abseil libraries the engine links are built.
# With WALLGO_WEB_OFFLINE=1 (the tests) nothing is downloaded: without
# Abseil in the cache the script says so and exits with status 77 (skip).
# The compiler runs under ccache when there is one (EM_COMPILER_WRAPPER).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/build-web/site}
build=${WALLGO_WEB_BUILD:-$repo/build-web}
cache=${WALLGO_WEB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wallgo-web}
jobs=${WALLGO_WEB_JOBS:-$(nproc)}

# OUT is replaced only when it is a site this script made (or empty), so
# that a mistyped folder loses nothing.
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ] &&
  [ ! -f "$out/engine/wallgo-web.wasm" ]; then
  echo "tools/web/build.sh: $out is not empty and holds no site made here: give another folder" >&2
  exit 1
fi

# The image's Node does not search Debian's Node modules, which
# emscripten's JS optimizer needs (acorn).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

for tool in emcmake em++ cmake ninja apt-get dpkg-source; do
  command -v "$tool" >/dev/null || {
    echo "tools/web/build.sh: $tool not found (apt-get install emscripten cmake ninja-build dpkg-dev)" >&2
    [ "${WALLGO_WEB_OFFLINE:-0}" = 1 ] && exit 77
    exit 1
  }
done
emscripten_version=$(em++ --version | sed -n '1s/.* \([0-9][0-9.]*\) .*/\1/p')
if [ -z "${EM_COMPILER_WRAPPER:-}" ] && command -v ccache >/dev/null; then
  export EM_COMPILER_WRAPPER=ccache
fi

# Debian's abseil source package, unpacked (with Debian's patches) once.
fetch_abseil() {
  apt_dir=$cache/apt
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$cache/src"
  cat >"$apt_dir/sources.list" <<EOF
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian bookworm-updates main
deb-src http://deb.debian.org/debian-security bookworm-security main
EOF
  apt_options="-o Dir::Etc::SourceList=$apt_dir/sources.list
    -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$apt_dir/lists
    -o Dir::Cache=$apt_dir -o APT::Sandbox::User=root"
  # shellcheck disable=SC2086
  apt-get -qq $apt_options update >&2
  # shellcheck disable=SC2086
  (cd "$cache/src" && apt-get -qq $apt_options source abseil >&2)
}

abseil_src=$(ls -d "$cache"/src/abseil-*/ 2>/dev/null | head -1 || true)
if [ -z "$abseil_src" ] && [ "${WALLGO_WEB_OFFLINE:-0}" = 1 ]; then
  echo "skipped: no Abseil source in $cache (run tools/web/build.sh once, online)" >&2
  exit 77
fi
if [ -z "$abseil_src" ]; then
  echo "fetching Debian's abseil source package into $cache/src" >&2
  fetch_abseil
  abseil_src=$(ls -d "$cache"/src/abseil-*/ | head -1)
fi
abseil_src=${abseil_src%/}
abseil_version=${abseil_src##*/abseil-}
# Abseil built with FLAGS, once per set of flags; prints its build folder.
build_abseil() {
  flags_key=$(printf %s "$1" | cksum | cut -d' ' -f1)
  prefix=$cache/abseil-$abseil_version-em$emscripten_version-$flags_key
  if [ ! -f "$prefix/done" ]; then
    echo "building Abseil $abseil_version for wasm ($1) into $prefix" >&2
    emcmake cmake -S "$abseil_src" -B "$prefix/build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=20 \
      -DABSL_PROPAGATE_CXX_STD=ON -DCMAKE_CXX_FLAGS="$1" \
      >&2
    # Only the libraries the engine links (and theirs): the engine's CMake
    # links every archive of this build folder, and reads the headers from
    # the source.
    cmake --build "$prefix/build" -j "$jobs" --target status \
      statusor strings str_format_internal time raw_hash_set >&2
    touch "$prefix/done"
  fi
  echo "$prefix/build"
}

# One variant of the programs: build_variant FOLDER THREADS(ON|OFF) FLAGS
# TARGETS... Every object, Abseil's included, gets FLAGS (SIMD128, and
# -pthread for the threaded variant).
build_variant() {
  folder=$1 threads=$2 flags=$3
  shift 3
  abseil_build=$(build_abseil "$flags")
  echo "building the engine for wasm in $folder" >&2
  emcmake cmake -S "$repo" -B "$folder" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DWALLGO_WEB_ABSEIL_BUILD="$abseil_build" \
    -DWALLGO_WEB_ABSEIL_INCLUDE="$abseil_src" \
    -DWALLGO_WEB_THREADS="$threads" -DWALLGO_WEB_FLAGS="$flags" >&2
  cmake --build "$folder" -j "$jobs" --target "$@" >&2
}

# Threaded, for Node and pages with cross-origin isolation; single-threaded
# (its files end in -st) for pages without shared memory.
build_variant "$build/engine" ON "-pthread -msimd128" wallgo-web wallgo-site
build_variant "$build/engine-st" OFF "-msimd128" wallgo-web wallgo-site \
  wallgo-net-values

rm -rf "$out"
mkdir -p "$out/engine"
bin=$build/engine/bin
st_bin=$build/engine-st/bin
cp "$bin"/wallgo-web.js "$bin"/wallgo-web.wasm "$bin"/wallgo-web.worker.js \
  "$st_bin"/wallgo-web-st.js "$st_bin"/wallgo-web-st.wasm "$out/engine/"
cp "$here"/engine/* "$out/engine/"
# package.json carries CMake's project(VERSION); the package, the licences.
cp "$build/engine/package.json" "$repo/LICENSE" "$repo/THIRD-PARTY.md" \
  "$out/engine/"
# The players' board: wallgo-gui's page (less its games list) on the
# bridge in a worker. Its index.html is wallgo-gui's, marked for the worker
# and with paths relative to the site, so that any folder of any host
# serves it.
gui=$repo/tools/gui/web
for f in "$gui"/*; do
  case ${f##*/} in
  index.html | puzzles.html | lobby.*) ;;
  *) cp "$f" "$out/" ;;
  esac
done
for page in index.html puzzles.html; do
  sed -e 's|<html lang="en">|<html lang="en" data-transport="worker">|' \
    -e 's|<title>wallgo-gui</title>|<title>Wall Go</title>|' \
    -e 's|href="/|href="./|g' -e 's|src="/|src="./|g' \
    "$gui/$page" >"$out/$page"
  grep -q 'data-transport="worker"' "$out/$page" || {
    echo "tools/web/build.sh: $gui/$page has changed: mark its <html> here" >&2
    exit 1
  }
done
# The Puzzles page's puzzles: the file the top CMakeLists.txt names in
# WALLGO_PUZZLES_JSON (wallgo-gui embeds the same one).
puzzles=$(sed -n 's|^set(WALLGO_PUZZLES_JSON ${PROJECT_SOURCE_DIR}/\(.*\))$|\1|p' "$repo/CMakeLists.txt")
[ -n "$puzzles" ] && [ -f "$repo/$puzzles" ] || {
  echo "tools/web/build.sh: no set(WALLGO_PUZZLES_JSON \${PROJECT_SOURCE_DIR}/FILE) naming a file in $repo/CMakeLists.txt" >&2
  exit 1
}
cp "$repo/$puzzles" "$out/puzzles.json"
cp "$bin"/wallgo-site.js "$bin"/wallgo-site.wasm "$bin"/wallgo-site.worker.js \
  "$st_bin"/wallgo-site-st.js "$st_bin"/wallgo-site-st.wasm \
  "$here"/site-worker.js "$out/"
cp "$here"/site/* "$out/"
/usr/bin/python3 "$here"/make_icons.py "$out"
# Installable (manifest.webmanifest) and offline (service-worker.js).
sed -i 's|</head>|<link rel="manifest" href="./manifest.webmanifest">\n</head>|' "$out/index.html" \
  "$out/puzzles.html"

# The release: the project's VERSION, the commit, and a digest of the site's
# files (a build between two commits differs too). version.json is what the
# page's About shows; the three together name the service worker's cache, so
# that a new build is a new worker, which the browser installs as an update.
version=$(sed -n 's/^project(wallgo VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
[ -n "$version" ] || {
  echo "tools/web/build.sh: no project(wallgo VERSION ...) in $repo/CMakeLists.txt" >&2
  exit 1
}
commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
files=$(cd "$out" && find . -type f ! -name service-worker.js | LC_ALL=C sort |
  xargs sha256sum | sha256sum | cut -c1-12)
printf '{"version": "%s", "commit": "%s", "files": "%s"}\n' \
  "$version" "$commit" "$files" >"$out/version.json"
# The page's own files: every top-level file but the engine builds (the
# worker caches the one the device runs) and itself.
shell=$(cd "$out" && find . -maxdepth 1 -type f ! -name 'wallgo-site*' \
  ! -name service-worker.js | LC_ALL=C sort |
  sed 's|^\./||' | paste -sd' ' | sed "s/ /', '/g")
sed -i -e "s|'@VERSION@'|'$version-$commit-$files'|" \
  -e "s|\['@SHELL@'\]|['$shell']|" "$out/service-worker.js"
echo "$out"
