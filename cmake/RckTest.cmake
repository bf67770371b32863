# Test registration helpers shared by tests/*/CMakeLists.txt.
#
# rck_add_backend_test registers one test on every backend listed in
# RCK_TEST_BACKENDS (tests/CMakeLists.txt), so that a suite says once what
# it runs and the loop over backends lives here.
#
#   rck_add_backend_test(NAME <suite>.<rest>
#     [UES <n>] [RUN_ARGS <launcher option>...]
#     COMMAND <program> [<arg>...]
#     [SIM_ARGS <arg>...] [NON_SIM_ARGS <arg>...]
#     [LABELS <label>...] [TIMEOUT <s>]
#     [ENVIRONMENT <VAR=value>...] [SIM_ENVIRONMENT <VAR=value>...]
#     [PROPERTIES <property> <value> ...])
#
# For each backend B it adds the test <suite>.B.<rest>:
#   * with UES, the command is `rck run -n <n> <RUN_ARGS> --backend B
#     <COMMAND> <SIM_ARGS or NON_SIM_ARGS>` (a program target name in
#     COMMAND is not resolved: pass $<TARGET_FILE:...>);
#   * without UES, COMMAND is the whole command line (a CMake script, say),
#     with the text @BACKEND@ in it replaced by B.
# @BACKEND@ is also replaced in LABELS, ENVIRONMENT and PROPERTIES. SIM_ARGS
# and SIM_ENVIRONMENT apply to the sim backend only, NON_SIM_ARGS to every
# other backend. TIMEOUT defaults to 120 s, four times that in a sanitizer
# build (RCK_SANITIZE).
function(rck_add_backend_test)
  cmake_parse_arguments(T "" "NAME;UES;TIMEOUT"
    "RUN_ARGS;COMMAND;SIM_ARGS;NON_SIM_ARGS;LABELS;ENVIRONMENT;SIM_ENVIRONMENT;PROPERTIES"
    ${ARGN})
  if(NOT T_NAME OR NOT T_COMMAND)
    message(FATAL_ERROR "rck_add_backend_test: NAME and COMMAND are required")
  endif()
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "rck_add_backend_test(${T_NAME}): unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  # a sanitized Debug build runs the same work 3-5 times slower (the
  # 48-process collectives on sim took 57 s of a 60 s limit under ASan)
  if(RCK_SANITIZE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * 4")
  endif()
  string(FIND "${T_NAME}" "." dot)
  if(dot LESS 1)
    message(FATAL_ERROR "rck_add_backend_test: NAME '${T_NAME}' is not <suite>.<rest>")
  endif()
  string(SUBSTRING "${T_NAME}" 0 ${dot} suite)
  math(EXPR dot "${dot} + 1")
  string(SUBSTRING "${T_NAME}" ${dot} -1 rest)

  foreach(backend IN LISTS RCK_TEST_BACKENDS)
    set(test ${suite}.${backend}.${rest})
    if(backend STREQUAL "sim")
      set(extra ${T_SIM_ARGS})
    else()
      set(extra ${T_NON_SIM_ARGS})
    endif()
    if(DEFINED T_UES)
      set(cmd $<TARGET_FILE:rck> run -n ${T_UES} ${T_RUN_ARGS}
              --backend ${backend} ${T_COMMAND} ${extra})
    else()
      string(REPLACE "@BACKEND@" "${backend}" cmd "${T_COMMAND}")
      list(APPEND cmd ${extra})
    endif()
    add_test(NAME ${test} COMMAND ${cmd})

    set_tests_properties(${test} PROPERTIES TIMEOUT ${T_TIMEOUT})
    string(REPLACE "@BACKEND@" "${backend}" labels "${T_LABELS}")
    if(labels)
      set_tests_properties(${test} PROPERTIES LABELS "${labels}")
    endif()
    set(env ${T_ENVIRONMENT})
    if(backend STREQUAL "sim")
      list(APPEND env ${T_SIM_ENVIRONMENT})
    endif()
    string(REPLACE "@BACKEND@" "${backend}" env "${env}")
    if(env)
      set_tests_properties(${test} PROPERTIES ENVIRONMENT "${env}")
    endif()
    if(T_PROPERTIES)
      string(REPLACE "@BACKEND@" "${backend}" extra_props "${T_PROPERTIES}")
      set_tests_properties(${test} PROPERTIES ${extra_props})
    endif()
  endforeach()
endfunction()

# Reference outputs (tests/sim/ref/): each test that compares with a
# checked-in file also gives the command that rewrites it, and the
# update-ref target (made by rck_add_update_ref_target at the end of
# tests/CMakeLists.txt) runs them all.
#   rck_add_ref_update(DEPENDS <target>... COMMAND <command line>...)
function(rck_add_ref_update)
  cmake_parse_arguments(U "" "" "DEPENDS;COMMAND" ${ARGN})
  set_property(GLOBAL APPEND PROPERTY RCK_REF_UPDATE_COMMANDS
    COMMAND ${U_COMMAND})
  set_property(GLOBAL APPEND PROPERTY RCK_REF_UPDATE_DEPENDS ${U_DEPENDS})
endfunction()

function(rck_add_update_ref_target)
  get_property(cmds GLOBAL PROPERTY RCK_REF_UPDATE_COMMANDS)
  get_property(deps GLOBAL PROPERTY RCK_REF_UPDATE_DEPENDS)
  if(NOT cmds)
    return()
  endif()
  add_custom_target(update-ref ${cmds}
    COMMENT "Rewriting the reference outputs in tests/sim/ref/" VERBATIM)
  list(REMOVE_DUPLICATES deps)
  add_dependencies(update-ref ${deps})
endfunction()

# rck_add_hal_program(<target> <source>...): a test program that calls the
# HAL itself. HAL calls are not exported from the shared library, so it
# links the static one, with the HAL's and util's headers.
function(rck_add_hal_program target)
  add_executable(${target} ${ARGN})
  target_include_directories(${target} PRIVATE
    ${CMAKE_SOURCE_DIR}/src/hal ${CMAKE_SOURCE_DIR}/src/util)
  target_link_libraries(${target} PRIVATE rockcreek_static)
endfunction()
