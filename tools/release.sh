#!/usr/bin/env bash
# Builds a release into dist/ (docs/release.md) from a clean checkout:
#   tools/release.sh [DIST]
# DIST (default dist/) receives, for VERSION = CMakeLists.txt's
# project(VERSION):
#   wallgo_VERSION_ARCH.deb       the programs and the Python module, for any
#                                 x86-64 machine (-DWALLGO_NATIVE=OFF)
#   wallgo-site-VERSION.zip       the board as a static site, for any host
#   wallgo-engine-VERSION.tgz     the engine's npm package (npm pack)
#   wallgo-VERSION.tar.gz         the source (git archive)
#   SHA256SUMS                    their checksums (sha256sum -c SHA256SUMS)
# Reproducible: every time stamp is SOURCE_DATE_EPOCH, the commit's time
# unless set, so a second run makes the same SHA256SUMS.
#
# The steps one by one, on trees already built (the release tests use them):
#   tools/release.sh deb BUILD DIST      cpack of a configured, built tree
#   tools/release.sh site SITE DIST      zip of a site tools/web/build.sh made
#   tools/release.sh npm SITE DIST       npm pack of SITE/engine
#   tools/release.sh source DIST         git archive of HEAD
#   tools/release.sh sums DIST           SHA256SUMS of DIST's artifacts
#   tools/release.sh pages DIST FOLDER   DIST's site zip unpacked, for a host
#   tools/release.sh deps                apt-get install what a release needs
# WALLGO_RELEASE_BUILD (default build-release/) holds the release's builds;
# WALLGO_RELEASE_DIRTY=1 allows a checkout with uncommitted changes;
# WALLGO_MAINTAINER="Name <address>" is the .deb's maintainer.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^project(wallgo VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
[ -n "$version" ] || { echo "release.sh: no project(wallgo VERSION ...) in CMakeLists.txt" >&2; exit 1; }
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct)}
export TZ=UTC LC_ALL=C.UTF-8

# The .deb of the built tree BUILD (cpack honours SOURCE_DATE_EPOCH).
pack_deb() {
  local build=$1 dist=$2
  (cd "$build" && cpack -G DEB -B "$build/cpack" >&2)
  cp "$build"/cpack/wallgo_"$version"_*.deb "$dist/"
}

# FOLDER's files with SOURCE_DATE_EPOCH's time and plain permissions.
normalize_tree() {
  find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
  chmod -R u=rwX,go=rX "$1"
}

# The board: SITE's files at the zip's top, with _headers (the COOP/COEP
# headers that give the engine its threads on Netlify and Cloudflare Pages;
# elsewhere the page's service worker isolates it), the licences, in
# sorted order, with fixed times and no extra attributes. SITE's engine/ is
# the npm package, not the board's: the board runs its own builds
# (wallgo-site*), so the zip holds each build once.
pack_site() {
  local site=$1 dist=$2 stage
  stage=$(mktemp -d)
  cp -r "$site"/. "$stage/"
  rm -rf "$stage/engine"
  cp "$repo/LICENSE" "$repo/THIRD-PARTY.md" "$stage/"
  cat >"$stage/_headers" <<'HEADERS'
/*
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
HEADERS
  normalize_tree "$stage"
  rm -f "$dist/wallgo-site-$version.zip"
  (cd "$stage" && find . -type f | sed 's|^\./||' | sort |
    zip -X -D -q -9 "$dist/wallgo-site-$version.zip" -@)
  rm -rf "$stage"
}

# The engine's package as npm pack makes it (fixed times of its own).
pack_npm() {
  local site=$1 dist=$2
  (cd "$site/engine" && npm pack --ignore-scripts --silent \
    --pack-destination "$dist" >/dev/null)
}

pack_source() {
  local dist=$1
  git -C "$repo" archive --format=tar --prefix="wallgo-$version/" HEAD |
    gzip -n -9 >"$dist/wallgo-$version.tar.gz"
}

write_sums() {
  local dist=$1
  (cd "$dist" && sha256sum -- wallgo_"$version"_*.deb "wallgo-site-$version.zip" \
    "wallgo-engine-$version.tgz" "wallgo-$version.tar.gz" >SHA256SUMS)
}

# Debian 12's packages a release is built with (as root).
install_deps() {
  apt-get update
  apt-get install -y --no-install-recommends g++ cmake ninja-build git \
    ca-certificates libabsl-dev libboost-program-options-dev libboost-dev \
    nlohmann-json3-dev pybind11-dev python3-dev python3-pybind11 file dpkg-dev \
    emscripten npm zip unzip
}

unpack_site() {
  local dist=$1 folder=$2
  rm -rf "$folder"
  mkdir -p "$folder"
  unzip -q "$dist/wallgo-site-$version.zip" -d "$folder"
}

release() {
  local dist=${1:-$repo/dist}
  local build=${WALLGO_RELEASE_BUILD:-$repo/build-release}
  if [ "${WALLGO_RELEASE_DIRTY:-0}" != 1 ] &&
    [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
    echo "release.sh: the checkout has uncommitted changes (WALLGO_RELEASE_DIRTY=1 to go on)" >&2
    exit 1
  fi
  dist=$(absolute "$dist")
  rm -f "$dist"/wallgo*.deb "$dist"/wallgo-*.zip "$dist"/wallgo-*.tgz \
    "$dist"/wallgo-*.tar.gz "$dist/SHA256SUMS"
  echo "release $version ($(git -C "$repo" rev-parse --short=12 HEAD)), SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH" >&2
  # Portable (no -march=native), no tests, the Python module required, in
  # Debian's own folder for Python modules of packages.
  cmake -S "$repo" -B "$build/native" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DWALLGO_NATIVE=OFF -DWALLGO_PYTHON=ON -DWALLGO_BUILD_TESTS=OFF \
    -DWALLGO_BUILD_BENCHMARKS=OFF -DCMAKE_INSTALL_PREFIX=/usr \
    -DWALLGO_PYTHON_INSTALL_DIR=lib/python3/dist-packages \
    ${WALLGO_MAINTAINER:+"-DWALLGO_MAINTAINER=$WALLGO_MAINTAINER"} >&2
  cmake --build "$build/native" >&2
  pack_deb "$build/native" "$dist"
  WALLGO_WEB_BUILD="$build/web" "$repo/tools/web/build.sh" "$build/web/site" >&2
  pack_site "$build/web/site" "$dist"
  pack_npm "$build/web/site" "$dist"
  pack_source "$dist"
  write_sums "$dist"
  cat "$dist/SHA256SUMS"
}

absolute() { mkdir -p "$1" && (cd "$1" && pwd); }
case ${1:-} in
deb) pack_deb "$(absolute "$2")" "$(absolute "$3")" ;;
site) pack_site "$(absolute "$2")" "$(absolute "$3")" ;;
npm) pack_npm "$(absolute "$2")" "$(absolute "$3")" ;;
source) pack_source "$(absolute "$2")" ;;
sums) write_sums "$(absolute "$2")" ;;
pages) unpack_site "$(absolute "$2")" "$3" ;;
deps) install_deps ;;
*) release "$@" ;;
esac
