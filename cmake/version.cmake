# Writes OUT from TEMPLATE with WALLGO_VERSION (VERSION, from
# project(VERSION)) and WALLGO_COMMIT: COMMIT when given, else the source's
# git commit (12 hex digits, "-dirty" with uncommitted changes), else the one
# `git archive` wrote into cmake/commit.txt, else "unknown". Run at every
# build (cmake -P), so a new commit is never missed; OUT changes only when
# its text does, so an unchanged build recompiles nothing.
#   cmake -DVERSION=1.0.0 -DSOURCE_DIR=... -DTEMPLATE=... -DOUT=... [-DCOMMIT=...] -P version.cmake
set(WALLGO_VERSION "${VERSION}")
set(WALLGO_COMMIT "${COMMIT}")
if(WALLGO_COMMIT STREQUAL "")
  find_program(GIT git)
  if(GIT AND EXISTS "${SOURCE_DIR}/.git")
    execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" rev-parse --short=12 HEAD
      OUTPUT_VARIABLE WALLGO_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE git_failed ERROR_QUIET)
    if(git_failed)
      set(WALLGO_COMMIT "")
    else()
      execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" diff --quiet HEAD --
        RESULT_VARIABLE dirty ERROR_QUIET)
      if(dirty)
        string(APPEND WALLGO_COMMIT "-dirty")
      endif()
    endif()
  endif()
endif()
if(WALLGO_COMMIT STREQUAL "" AND EXISTS "${SOURCE_DIR}/cmake/commit.txt")
  file(READ "${SOURCE_DIR}/cmake/commit.txt" archived)
  string(STRIP "${archived}" archived)
  if(archived MATCHES "^[0-9a-f]+$")  # not the unexpanded $Format$ of a checkout
    string(SUBSTRING "${archived}" 0 12 WALLGO_COMMIT)
  endif()
endif()
if(WALLGO_COMMIT STREQUAL "")
  set(WALLGO_COMMIT unknown)
endif()
configure_file("${TEMPLATE}" "${OUT}.new" @ONLY)
file(COPY_FILE "${OUT}.new" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.new")
