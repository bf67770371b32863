# The explore tests (tests/explore/CMakeLists.txt).
#   -DRCK=rck -DMODE=finds|same_seed|seed0|bad|passes|timeout|compare
#   -DPROG=program
#   [-DNUES=N] [-DARGS=a,b,c] [-DRUNS=K] [-DDIR=output dir] [-DMATCH=regex]
set(args)
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "," ";" args "${ARGS}")
endif()
set(ENV{RCK_COMPUTE} none)

function(run_ok what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  message("${what}: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed with ${rc}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "finds")
  # The model's own order hides the race ...
  run_ok("seed 0" ${RCK} run -n ${NUES} --backend sim --report none ${PROG}
    ${args})
  # ... explore finds it ...
  execute_process(COMMAND ${RCK} explore -n ${NUES} --runs ${RUNS} ${PROG}
    ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("explore: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "explore exited ${rc}, not 1 (a seed fails)")
  endif()
  if(NOT out MATCHES "\n${RUNS} runs, [1-9][0-9]* failed\n")
    message(FATAL_ERROR "no '${RUNS} runs, F failed' line")
  endif()
  string(REGEX MATCH "seed ([0-9]+): FAILED: ([^\n]*)\n" hit "${out}")
  set(seed ${CMAKE_MATCH_1})
  string(REGEX MATCH "(${MATCH}[^\n]*)" line "${out}")
  if(seed STREQUAL "" OR line STREQUAL "")
    message(FATAL_ERROR "no failing seed with '${MATCH}' in the output")
  endif()
  # ... and the command it prints for the first failing seed replays it:
  # the same failure, word for word
  string(REGEX MATCH "  reproduce: ([^\n]*)" cmd "${out}")
  set(cmd "${CMAKE_MATCH_1}")
  if(NOT cmd MATCHES " run --backend sim --schedule ${seed} ")
    message(FATAL_ERROR "the first reproduce command is not for seed ${seed}: ${cmd}")
  endif()
  separate_arguments(cmd UNIX_COMMAND "${cmd}")
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE rout
    ERROR_VARIABLE rerr)
  message("replay of seed ${seed}: exit ${rc}\n${rout}${rerr}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "the replay of seed ${seed} passed")
  endif()
  string(FIND "${rout}${rerr}" "${line}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the replay does not fail the same way: no '${line}'")
  endif()
elseif(MODE STREQUAL "same_seed" OR MODE STREQUAL "seed0")
  if(MODE STREQUAL "same_seed")
    set(how1 --schedule 12345)
    set(how2 --schedule 12345)
  else()
    set(how1 --schedule 0)
    set(how2)
  endif()
  foreach(i 1 2)
    set(rep "${DIR}/${MODE}-${i}.json")
    file(REMOVE "${rep}")
    run_ok("run ${i}" ${RCK} run -n ${NUES} --backend sim ${how${i}}
      --report ${rep} ${PROG} ${args})
    set(o${i} "${out}")
    file(READ "${rep}" r${i})
  endforeach()
  if(NOT r1 STREQUAL r2)
    message(FATAL_ERROR "the reports differ: compare ${DIR}/${MODE}-1.json and ${DIR}/${MODE}-2.json")
  endif()
  if(NOT o1 STREQUAL o2)
    message(FATAL_ERROR "the outputs differ")
  endif()
  if(MODE STREQUAL "same_seed" AND NOT r1 MATCHES "\n  \"schedule\": 12345,\n")
    message(FATAL_ERROR "the report does not name the seed")
  endif()
  if(MODE STREQUAL "seed0" AND r1 MATCHES "\"schedule\"")
    message(FATAL_ERROR "a seed-0 report names a schedule")
  endif()
  if(NOT r1 MATCHES "\"ended\": \"ok\"")
    message(FATAL_ERROR "the run did not end well")
  endif()
elseif(MODE STREQUAL "bad")
  # "expected message|command^arg^..." : exit status 2 and the message
  set(cases
    "--runs '0': not a number from 1|${RCK}^explore^-n^2^--runs^0^${PROG}"
    "--runs 'x': not a number from 1|${RCK}^explore^-n^2^--runs^x^${PROG}"
    "--jobs '0': not a number from 1|${RCK}^explore^-n^2^--jobs^0^${PROG}"
    "--first '-3': not a schedule seed|${RCK}^explore^-n^2^--first^-3^${PROG}"
    "--timeout 'soon': not a positive number|${RCK}^explore^-n^2^--timeout^soon^${PROG}"
    "--backend 'native': schedules are explored on the sim backend only|${RCK}^explore^-n^2^--backend^native^${PROG}"
    "--schedule is per run|${RCK}^explore^-n^2^--schedule^3^${PROG}"
    "missing program to run|${RCK}^explore^-n^2"
    "missing -n N|${RCK}^explore^${PROG}"
    "--schedule 'abc': not a schedule seed|${RCK}^run^-n^2^--backend^sim^--schedule^abc^${PROG}"
    "--schedule '-1': not a schedule seed|${RCK}^run^-n^2^--backend^sim^--schedule^-1^${PROG}"
    "--schedule 5: schedules are a sim backend feature|${RCK}^run^-n^2^--backend^native^--schedule^5^${PROG}"
    "RCK_SIM_SCHEDULE='1x': not an integer from 0 to 18446744073709551615|${CMAKE_COMMAND}^-E^env^RCK_SIM_SCHEDULE=1x^${RCK}^run^-n^2^--backend^sim^${PROG}")
  foreach(c IN LISTS cases)
    string(FIND "${c}" "|" bar)
    string(SUBSTRING "${c}" 0 ${bar} msg)
    math(EXPR bar "${bar} + 1")
    string(SUBSTRING "${c}" ${bar} -1 cmd)
    string(REPLACE "^" ";" cmd "${cmd}")
    execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out
      ERROR_VARIABLE err)
    message("${cmd}: exit ${rc}: ${err}")
    if(NOT rc EQUAL 2)
      message(FATAL_ERROR "exit ${rc}, not 2, for ${cmd}")
    endif()
    string(FIND "${err}" "${msg}" at)
    if(at LESS 0)
      message(FATAL_ERROR "no '${msg}' in: ${err}")
    endif()
  endforeach()
elseif(MODE STREQUAL "compare")
  # seedy.sh: "result <seed % 2>", "wall time <pid>", "done" from every UE.
  # --compare-output fails seed 2 (result 0 where seed 1 said 1), showing
  # the differing lines and the replay; --ignore makes them pass; --check
  # runs a hook on each seed's output.
  function(explore_expect want_rc)
    execute_process(COMMAND ${RCK} explore -n 2 --runs 3 ${ARGN} ${PROG}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message("explore ${ARGN}: exit ${rc}\n${out}${err}")
    if(NOT rc EQUAL want_rc)
      message(FATAL_ERROR "explore ${ARGN}: exit ${rc}, not ${want_rc}")
    endif()
    set(out "${out}" PARENT_SCOPE)
  endfunction()
  explore_expect(1 --compare-output --ignore "wall time")
  foreach(re "\n3 runs, 1 failed\n"
      "seed 2: FAILED: its output differs from seed 1's\n"
      "    - seed 1: \\[ 0\\] result 1\n    \\+ seed 2: \\[ 0\\] result 0\n"
      "reproduce: [^\n]* run --backend sim --schedule 2 ")
    if(NOT out MATCHES "${re}")
      message(FATAL_ERROR "no '${re}' in the output")
    endif()
  endforeach()
  if(out MATCHES "seed [13]: FAILED")
    message(FATAL_ERROR "a seed with the first seed's output failed")
  endif()
  # the process ids differ in every run: without --ignore all fail
  explore_expect(1 --compare-output)
  if(NOT out MATCHES "\n3 runs, 2 failed\n")
    message(FATAL_ERROR "the varying line did not fail the seeds")
  endif()
  explore_expect(0 --compare-output --ignore "wall time" --ignore "^result")
  explore_expect(1 --check "grep -q 'result 1'")
  if(NOT out MATCHES "seed 2: FAILED: --check failed \\(exit 1\\)\n" OR
     NOT out MATCHES "\n3 runs, 1 failed\n")
    message(FATAL_ERROR "--check did not fail seed 2 alone")
  endif()
  explore_expect(0 --check "test \"$RCK_EXPLORE_SEED\" -ge 1 && grep -q done")
  explore_expect(2 --ignore "wall time")
  explore_expect(2 --compare-output --ignore "(")
elseif(MODE STREQUAL "passes")
  run_ok("explore" ${RCK} explore -n ${NUES} --runs ${RUNS} ${PROG} ${args})
  if(NOT out MATCHES "\n?${RUNS} runs, 0 failed\n")
    message(FATAL_ERROR "no '${RUNS} runs, 0 failed' line")
  endif()
elseif(MODE STREQUAL "timeout")
  # Runs that hang are stopped at their timeout, reported as such with a
  # replay command that carries the timeout, and leave no process behind.
  set(marker "rck-explore-timeout-test-$ENV{USER}-${NUES}")
  execute_process(COMMAND ${RCK} explore -n ${NUES} --runs 3 --jobs 3
    --timeout 1 /bin/sh -c "sleep 60; : ${marker}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("explore: exit ${rc}\n${out}${err}")
  if(NOT rc EQUAL 1 OR NOT out MATCHES "\n3 runs, 3 failed\n")
    message(FATAL_ERROR "3 hanging runs are not 3 failures")
  endif()
  foreach(seed 1 2 3)
    if(NOT out MATCHES "seed ${seed}: FAILED: timed out after 1 s\n")
      message(FATAL_ERROR "seed ${seed} not reported as timed out")
    endif()
    if(NOT out MATCHES "--schedule ${seed} [^\n]*--timeout 1 /bin/sh")
      message(FATAL_ERROR "the replay of seed ${seed} lacks --timeout 1")
    endif()
  endforeach()
  # Every process's command line (its NUL-separated words joined by
  # spaces), skipping the ones that exit meanwhile: file(STRINGS) of a
  # vanished /proc entry is a fatal CMake error, and another test's
  # process may end while we look.
  file(GLOB procs LIST_DIRECTORIES true "/proc/[0-9]*")
  foreach(p IN LISTS procs)
    execute_process(COMMAND tr "\\000" " " INPUT_FILE "${p}/cmdline"
      RESULT_VARIABLE crc OUTPUT_VARIABLE cl ERROR_QUIET)
    if(crc EQUAL 0)
      string(FIND "${cl}" "${marker}" at)
      if(at GREATER -1)
        message(FATAL_ERROR "a core outlived explore: ${p}")
      endif()
    endif()
  endforeach()
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
