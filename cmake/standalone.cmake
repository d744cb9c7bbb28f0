# The module as a CMake project of its own, against an installed ns-3 (PyPI's
# ns3 wheel, or an ns-3 installed with `./ns3 install`), found through its
# CMake package:
#
#   cmake -S . -B build -G Ninja -Dns3_DIR=<prefix>/lib64/cmake/ns3
#
# Inside an ns-3 tree, ns-3 defines build_lib and build_lib_example.  Here they
# are defined with the arguments this module uses, so that CMakeLists.txt and
# examples/CMakeLists.txt hold the one list of sources, headers, tests and
# examples for both builds.  The build folder gets:
#   lib/      libns3.<version>-wan-training.so
#   include/  ns3/<header>.h for the module's headers, ns3/wan-training-module.h
#   bin/      the examples and test-runner (the module's test suites)
#   ns3       `./ns3 build` and `./ns3 run "program args"`, as in an ns-3 tree

find_package(ns3 CONFIG REQUIRED)
if(ns3_VERSION VERSION_LESS 3.41)
  message(FATAL_ERROR "wan-training: ns-3 ${ns3_VERSION} found; the standalone build needs 3.41 or later "
                      "(older releases: build the module inside their source tree)")
endif()

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()
# ns-3.41 and later are C++20.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
# The warnings of an ns-3 tree's build.
set(wan_training_warnings -Wall)
find_program(WAN_TRAINING_CCACHE ccache)
if(WAN_TRAINING_CCACHE)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${WAN_TRAINING_CCACHE})
endif()

# A precompiled header for the library and for test-runner (each its own, as
# their flags differ): the standard library headers ns-3's own build
# precompiles, and the ns-3 and JSON headers most of the module's sources
# include.  About a third less compile time from nothing; ccache caches the
# header's compile too (with the sloppiness scripts/common.sh sets), so a
# build in a new folder hits as without one.
option(WAN_TRAINING_PRECOMPILE_HEADERS "Precompile the headers most sources include" ON)
set(wan_training_pch
    <algorithm> <cstdint> <cstdlib> <cstring> <fstream> <functional> <iostream> <limits> <map>
    <memory> <ostream> <set> <sstream> <string> <unordered_map> <vector>
    <nlohmann/json.hpp> <ns3/log.h> <ns3/nstime.h> <ns3/simulator.h> <ns3/packet.h> <ns3/object.h>
    <ns3/uinteger.h> <ns3/string.h> <ns3/node.h> <ns3/socket.h> <ns3/ipv4-address.h>
)

set(wan_training_standalone TRUE)
get_filename_component(wan_training_ns3_prefix "${ns3_DIR}/../../.." ABSOLUTE)
set(wan_training_include_dir ${CMAKE_BINARY_DIR}/include)

# The installed ns-3's headers, without the rest of its include folder: the
# wheel also ships Boost 1.66 headers, which must not hide the system Boost
# the tools link against.  Its targets also name the include folders and
# third-party libraries of the machine it was built on (/usr/lib64/libgsl.so):
# only the ns-3 headers, the ns-3 targets and the linker flags are kept; the
# ns-3 libraries find their own third-party libraries (the wheel bundles them).
set(wan_training_ns3_include_dir ${CMAKE_BINARY_DIR}/ns3-include)
file(MAKE_DIRECTORY ${wan_training_ns3_include_dir})
file(CREATE_LINK ${wan_training_ns3_prefix}/include/ns3 ${wan_training_ns3_include_dir}/ns3 SYMBOLIC)
get_directory_property(wan_training_imported IMPORTED_TARGETS)
foreach(target ${wan_training_imported})
  if(target MATCHES "^ns3::(.+)$")
    get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
    list(FILTER links INCLUDE REGEX "^(ns3::|-)")
    set_target_properties(
      ${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${wan_training_ns3_include_dir}
                           INTERFACE_LINK_LIBRARIES "${links}"
    )
    # ${libcore}, ${libinternet}, ... as inside an ns-3 tree.
    set(lib${CMAKE_MATCH_1} ${target})
  endif()
endforeach()

set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)

# Makes each header reachable as "ns3/<name>.h" (a link to the source).
function(wan_training_expose_headers)
  file(MAKE_DIRECTORY ${wan_training_include_dir}/ns3)
  foreach(header ${ARGN})
    get_filename_component(name ${header} NAME)
    file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${header} ${wan_training_include_dir}/ns3/${name} SYMBOLIC)
  endforeach()
endfunction()

# build_lib(LIBNAME name SOURCE_FILES ... HEADER_FILES ... PRIVATE_HEADER_FILES
# ... LIBRARIES_TO_LINK ... TEST_SOURCES ...): the library, its headers, the
# module header, and test-runner with the TEST_SOURCES' suites.
function(build_lib)
  cmake_parse_arguments(
    BLIB "" "LIBNAME" "SOURCE_FILES;HEADER_FILES;PRIVATE_HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES" ${ARGN}
  )
  set(target ${BLIB_LIBNAME})
  add_library(${target} SHARED ${BLIB_SOURCE_FILES})
  set_target_properties(${target} PROPERTIES OUTPUT_NAME ns${ns3_VERSION}-${BLIB_LIBNAME})
  target_include_directories(${target} PUBLIC ${wan_training_include_dir})
  target_link_libraries(${target} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  target_compile_options(${target} PRIVATE ${wan_training_warnings})
  if(WAN_TRAINING_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} PRIVATE ${wan_training_pch})
  endif()

  wan_training_expose_headers(${BLIB_HEADER_FILES} ${BLIB_PRIVATE_HEADER_FILES})
  set(includes "")
  foreach(header ${BLIB_HEADER_FILES})
    get_filename_component(name ${header} NAME)
    string(APPEND includes "#include \"ns3/${name}\"\n")
  endforeach()
  string(TOUPPER "${BLIB_LIBNAME}" guard)
  string(REPLACE "-" "_" guard "${guard}_MODULE_H")
  file(
    CONFIGURE OUTPUT ${wan_training_include_dir}/ns3/${BLIB_LIBNAME}-module.h
    CONTENT "#ifndef ${guard}\n#define ${guard}\n\n${includes}\n#endif\n"
  )

  if(BLIB_TEST_SOURCES)
    add_executable(test-runner ${CMAKE_CURRENT_SOURCE_DIR}/cmake/test-runner.cc ${BLIB_TEST_SOURCES})
    target_link_libraries(test-runner PRIVATE ${target})
    # (CMakeLists.txt compiles the suites unoptimised, in both builds.)
    target_compile_options(test-runner PRIVATE ${wan_training_warnings})
    if(WAN_TRAINING_PRECOMPILE_HEADERS)
      target_precompile_headers(test-runner PRIVATE ${wan_training_pch} <ns3/test.h>)
    endif()
    set(test${BLIB_LIBNAME} test-runner PARENT_SCOPE)
  endif()
  set(lib${BLIB_LIBNAME} ${target} PARENT_SCOPE)
  set(lib${BLIB_LIBNAME}-obj ${target} PARENT_SCOPE)

  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt)
    set(lib${BLIB_LIBNAME} ${target})
    add_subdirectory(examples)
  endif()

  # ./ns3, and the list of programs that tools such as SEM read from an ns-3
  # tree's lock file.
  configure_file(
    ${CMAKE_CURRENT_SOURCE_DIR}/cmake/ns3.py ${CMAKE_BINARY_DIR}/ns3 COPYONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE
  )
  get_property(programs GLOBAL PROPERTY wan_training_programs)
  set(paths "")
  foreach(program ${programs} test-runner)
    string(APPEND paths "    '${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${program}',\n")
  endforeach()
  string(TOLOWER "${CMAKE_SYSTEM_NAME}" platform)
  file(
    CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/.lock-ns3_${platform}_build
    CONTENT "# Programs of the wan-training standalone build.\nns3_runnable_programs = [\n${paths}]\n"
  )
endfunction()

# build_lib_example(NAME name SOURCE_FILES ... LIBRARIES_TO_LINK ...)
function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "" "NAME" "SOURCE_FILES;LIBRARIES_TO_LINK" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  # The plain signature, as ns-3's own: examples/CMakeLists.txt links more.
  target_link_libraries(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  target_compile_options(${BLIB_EXAMPLE_NAME} PRIVATE ${wan_training_warnings})
  set_property(GLOBAL APPEND PROPERTY wan_training_programs ${BLIB_EXAMPLE_NAME})
endfunction()
