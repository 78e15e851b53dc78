# The WebAssembly build (tools/web/build.sh, docs/web.md), included by the
# top CMakeLists.txt under emcmake. The engine's libraries build as they
# are, less what only the native programs need: Boost (the command line),
# GoogleTest and the tools. Abseil and nlohmann_json are handed to the
# libraries' own find_package calls through small package files written
# here, so that no native include folder (/usr/include) reaches the
# compiler.
set(WALLGO_WEB_ABSEIL_BUILD "" CACHE PATH
  "Abseil built for wasm (build.sh): its build folder")
set(WALLGO_WEB_ABSEIL_INCLUDE "" CACHE PATH "Abseil's source (its headers)")
option(WALLGO_WEB_THREADS
  "The threaded variant (pthreads, SharedArrayBuffer); OFF: single-threaded" ON)
set(WALLGO_WEB_FLAGS "-pthread -msimd128" CACHE STRING
  "Flags of every object, Abseil's included")
string(FIND " ${WALLGO_WEB_FLAGS} " " -pthread " wallgo_web_pthread_flag)
if((WALLGO_WEB_THREADS AND wallgo_web_pthread_flag EQUAL -1) OR
   (NOT WALLGO_WEB_THREADS AND NOT wallgo_web_pthread_flag EQUAL -1))
  message(FATAL_ERROR "WALLGO_WEB_FLAGS has -pthread exactly when WALLGO_WEB_THREADS is ON")
endif()
if(NOT EXISTS "${WALLGO_WEB_ABSEIL_INCLUDE}/absl/base/config.h")
  message(FATAL_ERROR "the wasm build needs Abseil built for wasm: run tools/web/build.sh")
endif()

# Node's programs (the engine, wallgo-net-values) link this: their exit
# waits for stdout to drain (node_exit.js says why).
set(WALLGO_WEB_NODE_EXIT ${CMAKE_CURRENT_LIST_DIR}/node_exit.js)
function(wallgo_web_node_exit target)
  target_link_options(${target} PRIVATE "SHELL:--pre-js ${WALLGO_WEB_NODE_EXIT}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${WALLGO_WEB_NODE_EXIT})
endfunction()

# What emscripten 3.1.6's libc++ lacks (compat/stop_token says what).
include_directories(BEFORE ${CMAKE_CURRENT_LIST_DIR}/compat)

separate_arguments(wallgo_web_flags UNIX_COMMAND "${WALLGO_WEB_FLAGS}")
add_compile_options(${wallgo_web_flags})
add_link_options(${wallgo_web_flags})

set(wallgo_web_packages ${CMAKE_BINARY_DIR}/web-packages)
# Abseil: every archive of its build folder behind the targets the engine
# names (wasm-ld, like lld, resolves archives in any order).
file(GLOB_RECURSE wallgo_web_absl_archives
  ${WALLGO_WEB_ABSEIL_BUILD}/absl/*.a)
file(WRITE ${wallgo_web_packages}/absl/abslConfig.cmake "
if(NOT TARGET wallgo_web_absl)
  add_library(wallgo_web_absl INTERFACE IMPORTED)
  set_target_properties(wallgo_web_absl PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES \"${WALLGO_WEB_ABSEIL_INCLUDE}\"
    INTERFACE_LINK_LIBRARIES \"${wallgo_web_absl_archives}\")
  foreach(name status statusor strings str_format time flat_hash_map)
    add_library(absl::\${name} INTERFACE IMPORTED)
    set_target_properties(absl::\${name} PROPERTIES
      INTERFACE_LINK_LIBRARIES wallgo_web_absl)
  endforeach()
endif()
")
# nlohmann_json: header-only; its folder alone is put on the include path.
file(MAKE_DIRECTORY ${wallgo_web_packages}/json-include)
file(CREATE_LINK /usr/include/nlohmann
  ${wallgo_web_packages}/json-include/nlohmann SYMBOLIC)
file(WRITE ${wallgo_web_packages}/nlohmann_json/nlohmann_jsonConfig.cmake "
if(NOT TARGET nlohmann_json::nlohmann_json)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES \"${wallgo_web_packages}/json-include\")
endif()
")
file(WRITE ${wallgo_web_packages}/nlohmann_json/nlohmann_jsonConfigVersion.cmake "
set(PACKAGE_VERSION 3.11)
set(PACKAGE_VERSION_COMPATIBLE TRUE)
")
set(absl_DIR ${wallgo_web_packages}/absl CACHE PATH "" FORCE)
set(nlohmann_json_DIR ${wallgo_web_packages}/nlohmann_json CACHE PATH "" FORCE)
