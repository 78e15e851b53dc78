# The .deb (`cpack -G DEB` in a build folder; tools/release.sh makes the
# release's), written to pass lintian: the licence in Debian's
# machine-readable form (DEP-5) and a changelog where dpkg and lintian look
# for them, stripped programs, the dependencies the Python module needs.
install(FILES packaging/copyright THIRD-PARTY.md
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/wallgo)

set(CPACK_PACKAGE_NAME wallgo)
set(CPACK_PACKAGE_VENDOR "wallgo")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Wall Go engine, match referee, browser GUI and tools")
set(CPACK_PACKAGE_DESCRIPTION "The Wall Go engine (wallgo), a match referee \
(wallgo-referee),\na board in the browser for any engine (wallgo-gui), the \
network tool\n(wallgo-net), the cluster workflows (wallgo-cluster) and the \
Python module\nwallgo.")
# The maintainer: by default the project's own identity, the no-reply
# address its commits carry; -DWALLGO_MAINTAINER="Name <address>" (or
# WALLGO_MAINTAINER in tools/release.sh's environment) names another, as a
# distributor repackaging it would.
# Build folders configured before 1.0.0's release cached a placeholder at
# localhost, which lintian rejects: forget it, so that they take the default.
if(WALLGO_MAINTAINER MATCHES "@localhost>?$")
  unset(WALLGO_MAINTAINER CACHE)
endif()
set(WALLGO_MAINTAINER
  "wallgo maintainers <maintainers@users.noreply.a-seed-b142316f.example>"
  CACHE STRING "The .deb's maintainer and changelog signature")
set(CPACK_PACKAGE_CONTACT "${WALLGO_MAINTAINER}")

# Debian's changelog of a native package: this version, dated
# SOURCE_DATE_EPOCH when set (string(TIMESTAMP) reads it; tools/release.sh
# sets the commit's time), compressed without a name or time (gzip -n), so
# that a release is reproducible. What changed is in CHANGELOG.md.
string(TIMESTAMP wallgo_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/packaging/changelog
"wallgo (${PROJECT_VERSION}) stable; urgency=medium

  * Release ${PROJECT_VERSION}: CHANGELOG.md in the source says what changed.

 -- ${CPACK_PACKAGE_CONTACT}  ${wallgo_changelog_date}
")
execute_process(COMMAND gzip -n -9 -c ${CMAKE_BINARY_DIR}/packaging/changelog
  OUTPUT_FILE ${CMAKE_BINARY_DIR}/packaging/changelog.gz COMMAND_ERROR_IS_FATAL ANY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/wallgo)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Section games would want the programs in /usr/games.
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_STRIP_FILES ON)
if(WALLGO_PYTHON)
  # The module is built for this Python (its extension's ABI tag), and
  # wallgo.aec imports numpy.
  math(EXPR wallgo_next_minor "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "python3 (>= ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}), python3 (<< ${Python3_VERSION_MAJOR}.${wallgo_next_minor}), python3-numpy")
endif()
set(CPACK_GENERATOR DEB)
include(CPack)
