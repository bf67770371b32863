# Run a program twice on the sim backend with a deterministic compute model
# and require byte-identical reports (and traces, with -DTRACE=1).
#   -DRCK=rck -DNUES=N -DPROG=program [-DARGS=a,b,c] -DDIR=output dir
#   [-DCOMPUTE=none] [-DTRACE=1] [-DRUN_ARGS=--universe,6] (more rck run
#   options)
# With -DENV_RUN1=NAME=VALUE and -DENV_RUN2=NAME=VALUE, each run has its
# own setting too (the same report is still required; the environment's
# size no longer moves the program's addresses under the P54C models:
# docs/P54C.md, "Determinism"); with -DMATCH_RUN1=regex, run 1's output
# must match. With -DIGNORE_HANDOVERS=1 the reports are compared without
# their hand-over counts (a setting that only changes how often the token
# moves).
# With -DPROG_RUN2=program, run 2 runs that program instead (the same
# report is still required: a program linked differently whose figures
# must not move).
# With -DREF_REPORT=file (and -DCHIP=chip file), run 1's report must also
# be byte for byte the checked-in reference (refcmp.cmake; -DUPDATE=1
# rewrites it).
set(args)
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "," ";" args "${ARGS}")
endif()
set(run_args)
if(DEFINED RUN_ARGS AND NOT RUN_ARGS STREQUAL "")
  string(REPLACE "," ";" run_args "${RUN_ARGS}")
endif()
if(NOT DEFINED COMPUTE)
  set(COMPUTE none)
endif()
set(ENV{RCK_COMPUTE} "${COMPUTE}")
if(DEFINED CHIP)
  set(ENV{RCK_CHIP} "${CHIP}")
endif()
foreach(i 1 2)
  set(rep "${DIR}/determinism-${i}.json")
  set(trc "${DIR}/trace-${i}.json")
  file(REMOVE "${rep}" "${trc}")
  set(ENV{RCK_SIM_REPORT} "${rep}")
  if(TRACE)
    set(ENV{RCK_SIM_TRACE} "${trc}")
  endif()
  if(i EQUAL 2 AND DEFINED ENV_RUN1)
    # run 1's own setting does not carry over
    string(REGEX MATCH "^[^=]+" _name "${ENV_RUN1}")
    unset(ENV{${_name}})
  endif()
  if(DEFINED ENV_RUN${i})
    string(REGEX MATCH "^[^=]+" _name "${ENV_RUN${i}}")
    string(REGEX REPLACE "^[^=]+=" "" _value "${ENV_RUN${i}}")
    set(ENV{${_name}} "${_value}")
  endif()
  set(prog "${PROG}")
  if(i EQUAL 2 AND DEFINED PROG_RUN2)
    set(prog "${PROG_RUN2}")
  endif()
  execute_process(COMMAND ${RCK} run -n ${NUES} ${run_args} --backend sim
    ${prog} ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("run ${i}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed with ${rc}")
  endif()
  if(i EQUAL 1 AND DEFINED MATCH_RUN1 AND NOT "${out}${err}" MATCHES "${MATCH_RUN1}")
    message(FATAL_ERROR "run 1's output does not match '${MATCH_RUN1}'")
  endif()
  file(READ "${rep}" r${i})
  if(IGNORE_HANDOVERS)
    string(REGEX REPLACE "\"(handovers|yields)\": [0-9]+" "\"\\1\": 0"
      r${i} "${r${i}}")
  endif()
  if(TRACE)
    file(READ "${trc}" t${i})
  endif()
endforeach()
if(NOT r1 STREQUAL r2)
  message(FATAL_ERROR "the two reports differ: compare ${DIR}/determinism-1.json and ${DIR}/determinism-2.json")
endif()
if(DEFINED REF_REPORT)
  include(${CMAKE_CURRENT_LIST_DIR}/refcmp.cmake)
  rck_ref_compare("${DIR}/determinism-1.json" "${REF_REPORT}")
endif()
if(NOT r1 MATCHES "\"ended\": \"ok\"" OR NOT r1 MATCHES "\"simulated_cycles\": [1-9]")
  message(FATAL_ERROR "the report does not describe a complete run")
endif()
# the model asked for is the one that ran (no silent fallback)
string(FIND "${r1}" "\"compute_model\": {\"name\": \"${COMPUTE}\"" at)
if(at LESS 0)
  message(FATAL_ERROR "the report does not name the compute model ${COMPUTE}")
endif()
# the report is JSON with the figures the benchmarks read
string(JSON hand GET "${r1}" handovers)
string(JSON nlinks LENGTH "${r1}" mesh_links)
# (a run without messages, on 1 UE, has no hottest link)
string(JSON hot ERROR_VARIABLE no_link GET "${r1}" hottest_link bytes)
if(no_link AND NOT NUES EQUAL 1)
  message(FATAL_ERROR "the report has no hottest link: ${no_link}")
endif()
message("hand-overs ${hand}, ${nlinks} directed links, hottest ${hot} bytes")
if(TRACE)
  if(NOT t1 STREQUAL t2)
    message(FATAL_ERROR "the two traces differ: compare ${DIR}/trace-1.json and ${DIR}/trace-2.json")
  endif()
  # valid JSON in the Chrome trace-event format Perfetto opens
  string(JSON unit GET "${t1}" displayTimeUnit)
  string(JSON nev LENGTH "${t1}" traceEvents)
  string(JSON first_ph GET "${t1}" traceEvents 0 ph)
  message("trace: ${nev} events, display unit ${unit}")
  # (tests/sim/check_trace.py checks the events themselves)
  foreach(want "\"name\":\"RCCE_send\",\"cat\":\"call\",\"ph\":\"X\""
               "\"name\":\"RCCE_recv\",\"cat\":\"call\",\"ph\":\"X\""
               "\"name\":\"wait\",\"cat\":\"wait\",\"ph\":\"X\""
               "\"flow_out\":true"
               "\"cat\":\"flow\",\"ph\":\"X\""
               "\"flow_in\":true"
               "\"name\":\"thread_name\",\"ph\":\"M\"")
    string(FIND "${t1}" "${want}" at)
    if(at LESS 0)
      message(FATAL_ERROR "the trace has no ${want}")
    endif()
  endforeach()
endif()
