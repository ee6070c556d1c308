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
# When the build writes no compile database with the target's commands (the
# generator, or CMAKE_EXPORT_COMPILE_COMMANDS off), configuring warns how to
# fix it and the lint target fails with the same message.
# The torchtidy executable is found on PATH, or given as TORCHTIDY_EXECUTABLE.
include_guard(GLOBAL)

find_program(TORCHTIDY_EXECUTABLE torchtidy DOC "The torchtidy static analyzer")

# Sets <out> to why the compile database lacks <target>'s commands, and how
# to fix it; to "" when it has them. Without <target>, only the generator is
# checked (it also works in script mode, where there are no targets).
function(torchtidy_compile_db_problem out generator)
  set(problem "")
  # Only the Makefile and Ninja generators write compile_commands.json.
  if(NOT generator MATCHES "Makefiles|^Ninja|^Watcom WMake$")
    string(CONCAT problem
      "the '${generator}' generator writes no compile_commands.json, which torchtidy reads; "
      "configure this build with a Makefile or Ninja generator (-G Ninja)")
  elseif(ARGC GREATER 2)
    # Set from CMAKE_EXPORT_COMPILE_COMMANDS when the target was defined.
    get_target_property(exported ${ARGV2} EXPORT_COMPILE_COMMANDS)
    if(NOT exported AND CMAKE_EXPORT_COMPILE_COMMANDS)
      string(CONCAT problem
        "target '${ARGV2}' was defined while CMAKE_EXPORT_COMPILE_COMMANDS was off, so "
        "compile_commands.json lacks its files; move set(CMAKE_EXPORT_COMPILE_COMMANDS ON) "
        "before its definition, or set its EXPORT_COMPILE_COMMANDS property to ON")
    elseif(NOT exported)
      string(CONCAT problem
        "CMAKE_EXPORT_COMPILE_COMMANDS is off, so there is no compile_commands.json for "
        "torchtidy to read; add set(CMAKE_EXPORT_COMPILE_COMMANDS ON) before the targets "
        "are defined, or configure with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON")
    endif()
  endif()
  set(${out} "${problem}" PARENT_SCOPE)
endfunction()

function(torchtidy_target target)
  cmake_parse_arguments(PARSE_ARGV 1 TT "ALL" "CHECKS" "ARGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "torchtidy_target: no target named '${target}'")
  endif()
  if(NOT TORCHTIDY_EXECUTABLE)
    message(FATAL_ERROR "torchtidy_target(${target}): torchtidy not found on PATH; "
                        "set TORCHTIDY_EXECUTABLE to its path")
  endif()
  torchtidy_compile_db_problem(problem "${CMAKE_GENERATOR}" ${target})

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
  if(problem)
    # Not an error: the project must still configure for those who do not lint
    # (an IDE's generator); the lint target fails instead of reading a missing
    # or stale database.
    set(problem "torchtidy_target(${target}): ${problem}")
    message(WARNING "${problem}")
    add_custom_target(${target}-torchtidy ${all}
      COMMAND ${CMAKE_COMMAND} -E echo "${problem}"
      COMMAND ${CMAKE_COMMAND} -E false
      VERBATIM)
  else()
    add_custom_target(${target}-torchtidy ${all}
      COMMAND ${TORCHTIDY_EXECUTABLE} -p ${CMAKE_BINARY_DIR} ${checks} ${TT_ARGS} ${files}
      COMMENT "torchtidy: ${target}"
      VERBATIM)
  endif()
  if(NOT TARGET torchtidy-all)
    add_custom_target(torchtidy-all)
  endif()
  add_dependencies(torchtidy-all ${target}-torchtidy)
endfunction()
