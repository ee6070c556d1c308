# torchtidy for CMake projects:
#
#   list(APPEND CMAKE_MODULE_PATH <torchtidy>/integrations/cmake)
#   include(torchtidy)
#   torchtidy_target(<target> [ALL] [CHECKS <globs>] [ARGS <torchtidy args>...])
#
# adds a custom target <target>-torchtidy that runs torchtidy on the
# target's C++ and CUDA sources with this build's compile_commands.json, and
# makes the umbrella target torchtidy-all depend on it. With ALL, the lint
# runs in every build. It fails when torchtidy reports a finding (exit 1).
# The torchtidy executable is found on PATH, or given as TORCHTIDY_EXECUTABLE.
include_guard(GLOBAL)

find_program(TORCHTIDY_EXECUTABLE torchtidy DOC "The torchtidy static analyzer")

function(torchtidy_target target)
  cmake_parse_arguments(PARSE_ARGV 1 TT "ALL" "CHECKS" "ARGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "torchtidy_target: no target named '${target}'")
  endif()
  if(NOT TORCHTIDY_EXECUTABLE)
    message(FATAL_ERROR "torchtidy_target(${target}): torchtidy not found on PATH; "
                        "set TORCHTIDY_EXECUTABLE to its path")
  endif()
  if(NOT CMAKE_EXPORT_COMPILE_COMMANDS)
    message(FATAL_ERROR "torchtidy_target(${target}) reads compile_commands.json: "
                        "set CMAKE_EXPORT_COMPILE_COMMANDS to ON before the targets are defined")
  endif()

  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(files)
  foreach(src IN LISTS sources)
    # Generated names ($<...>) and headers have no compile command.
    if(src MATCHES "^\\$<" OR NOT src MATCHES "\\.(c|cc|cpp|cxx|c\\+\\+|cu)$")
      continue()
    endif()
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY ${source_dir} NORMALIZE OUTPUT_VARIABLE file)
    list(APPEND files ${file})
  endforeach()
  if(NOT files)
    message(FATAL_ERROR "torchtidy_target(${target}): the target has no C++ or CUDA sources")
  endif()

  set(checks)
  if(TT_CHECKS)
    set(checks "--checks=${TT_CHECKS}")
  endif()
  set(all)
  if(TT_ALL)
    set(all ALL)
  endif()
  add_custom_target(${target}-torchtidy ${all}
    COMMAND ${TORCHTIDY_EXECUTABLE} -p ${CMAKE_BINARY_DIR} ${checks} ${TT_ARGS} ${files}
    COMMENT "torchtidy: ${target}"
    VERBATIM)
  if(NOT TARGET torchtidy-all)
    add_custom_target(torchtidy-all)
  endif()
  add_dependencies(torchtidy-all ${target}-torchtidy)
endfunction()
