# cmake -DTORCHTIDY_SOURCE_DIR=<dir> -P cmake_db_generators.cmake prints, for
# every generator this cmake offers and for two it offers only on other
# systems, what the torchtidy helper says of its compile database.
list(APPEND CMAKE_MODULE_PATH ${TORCHTIDY_SOURCE_DIR}/integrations/cmake)
include(torchtidy)

execute_process(COMMAND ${CMAKE_COMMAND} -E capabilities OUTPUT_VARIABLE caps COMMAND_ERROR_IS_FATAL ANY)
string(JSON count LENGTH "${caps}" generators)
math(EXPR last "${count} - 1")
set(generators "Xcode" "Visual Studio 17 2022")
foreach(i RANGE ${last})
  string(JSON name GET "${caps}" generators ${i} name)
  list(APPEND generators "${name}")
endforeach()
foreach(generator IN LISTS generators)
  torchtidy_compile_db_problem(problem "${generator}")
  if(NOT problem)
    set(problem "writes the database")
  endif()
  message("${generator}: ${problem}")
endforeach()
