# Shared compile options for every trainyard target.

if(TRAINYARD_SANITIZE STREQUAL "address")
  set(_ty_san_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
elseif(TRAINYARD_SANITIZE STREQUAL "thread")
  set(_ty_san_flags -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT TRAINYARD_SANITIZE STREQUAL "")
  message(FATAL_ERROR "TRAINYARD_SANITIZE must be '', 'address' or 'thread'")
endif()
# libFuzzer targets (tests/fuzz): every target gets coverage instrumentation for the fuzzer.
option(TRAINYARD_FUZZ "Build the libFuzzer targets (clang; use with TRAINYARD_SANITIZE=address)" OFF)
if(TRAINYARD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "TRAINYARD_FUZZ needs clang (libFuzzer)")
  endif()
  list(APPEND _ty_san_flags -fsanitize=fuzzer-no-link)
endif()
if(_ty_san_flags)
  add_compile_options(${_ty_san_flags})
  add_link_options(${_ty_san_flags})
endif()
# lld links the test binaries (hundreds of MiB of debug information) 5 to 8 times faster than the
# default linker, and links are never cached: each build pays them all.
find_program(TRAINYARD_LLD ld.lld)
if(TRAINYARD_LLD)
  add_link_options(-fuse-ld=lld)
endif()
# An ASan+UBSan executable is linked at a fixed address: as a PIE, the loader applies about four
# million relocations to the instrumented data at every start (0.3 s and 240 MiB for `trainyard
# --version`), and the tests start it thousands of times. TSan keeps PIE, which its memory
# layout expects.
if(TRAINYARD_SANITIZE STREQUAL "address")
  add_link_options($<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()

# How much debug information the configurations with -g (Debug, RelWithDebInfo) carry: "full"
# (-g), "lines" (line tables only: file and line in backtraces and sanitizer reports, for a
# quarter less compile time with g++ and a fraction of the object size) or "none".
set(TRAINYARD_DEBUG_INFO "full" CACHE STRING "Debug information: full, lines or none")
if(NOT TRAINYARD_DEBUG_INFO MATCHES "^(full|lines|none)$")
  message(FATAL_ERROR "TRAINYARD_DEBUG_INFO must be 'full', 'lines' or 'none'")
endif()
if(NOT TRAINYARD_DEBUG_INFO STREQUAL "full")
  foreach(_lang C CXX)
    foreach(_cfg DEBUG RELWITHDEBINFO)
      string(REGEX REPLACE "(^| )-g( |$)" " " CMAKE_${_lang}_FLAGS_${_cfg} "${CMAKE_${_lang}_FLAGS_${_cfg}}")
    endforeach()
  endforeach()
  if(TRAINYARD_DEBUG_INFO STREQUAL "lines" AND CMAKE_BUILD_TYPE MATCHES "^(Debug|RelWithDebInfo)$")
    add_compile_options(-g1)
  endif()
endif()

# A unity build compiles a batch of a target's sources as one unit: the heavy headers (the
# standard library, nlohmann-json, fmt, CLI11, gtest) are parsed and their templates instantiated
# once a batch instead of once a file, which is most of a file's compile time. Sources must not
# clash in a batch: names in anonymous namespaces are unique in each library, and a test file's
# helpers sit in a namespace named after the file.
if(TRAINYARD_UNITY)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE ${TRAINYARD_UNITY_BATCH})
endif()

# Applies warnings (and -Werror when asked) to one target.
function(trainyard_set_options tgt)
  target_compile_features(${tgt} PUBLIC cxx_std_20)
  target_compile_options(${tgt} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                        -Wno-sign-conversion -Wnon-virtual-dtor
                                        -Wno-missing-field-initializers)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 at -O2 reports -Wrestrict on `"text" + std::string` inside libstdc++ (GCC bug 105329).
    target_compile_options(${tgt} PRIVATE -Wno-restrict)
    # GCC warns of a class whose member's type is in an anonymous namespace when the class is
    # not in the main file, meant for headers; in a unity batch every source is an included file.
    if(TRAINYARD_UNITY)
      target_compile_options(${tgt} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
  if(TRAINYARD_WERROR)
    target_compile_options(${tgt} PRIVATE -Werror)
  endif()
endfunction()

# Declares library trainyard_<name> from the folder's src/*.cpp with include/ public.
function(trainyard_library name)
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp)
  add_library(trainyard_${name} STATIC ${_srcs})
  add_library(trainyard::${name} ALIAS trainyard_${name})
  target_include_directories(trainyard_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  trainyard_set_options(trainyard_${name})
endfunction()
