# A run's chip times under a P54C model do not depend on its environment,
# its arguments' paths, its working directory or --report (docs/P54C.md,
# "Determinism"), nor on --trace. PROG runs twice:
#   run 1: in DIR/a-longer-working-directory/..., with a 30,000-byte extra
#          environment variable, the program by its absolute path,
#          --report DIR/run1.json and --trace DIR/run1.trace.json;
#   run 2: in DIR/b, the program by a relative path, no --report (the
#          report goes to the default rck-sim-report.json there).
# Every core's cycles (all, compute, DRAM, waiting) and instructions must
# be the same.
#   -DRCK=rck -DNUES=N -DPROG=program [-DARGS=a,b] -DDIR=output dir
#   -DCOMPUTE=p54c|p54c-fast [-DMATCH_RUN1=regex]
set(args)
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "," ";" args "${ARGS}")
endif()
set(dir1 "${DIR}/a-longer-working-directory/with/more/components")
set(dir2 "${DIR}/b")
file(REMOVE_RECURSE "${DIR}/a-longer-working-directory" "${dir2}")
file(MAKE_DIRECTORY "${dir1}" "${dir2}")
file(REMOVE "${DIR}/run1.json" "${DIR}/run1.trace.json")
unset(ENV{RCK_SIM_REPORT})
unset(ENV{RCK_REPORT})
unset(ENV{RCK_SIM_TRACE})
set(ENV{RCK_COMPUTE} "${COMPUTE}")

string(REPEAT "x" 30000 big)
set(ENV{RCK_TEST_ENVSIZE_BIG} "${big}")
execute_process(COMMAND ${RCK} run -n ${NUES} --backend sim
  --report "${DIR}/run1.json" --trace "${DIR}/run1.trace.json"
  ${PROG} ${args}
  WORKING_DIRECTORY "${dir1}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("run 1:\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run 1 failed with ${rc}")
endif()
if(DEFINED MATCH_RUN1 AND NOT "${out}${err}" MATCHES "${MATCH_RUN1}")
  message(FATAL_ERROR "run 1's output does not match '${MATCH_RUN1}'")
endif()
unset(ENV{RCK_TEST_ENVSIZE_BIG})

file(RELATIVE_PATH rel "${dir2}" "${PROG}")
execute_process(COMMAND ${RCK} run -n ${NUES} --backend sim ${rel} ${args}
  WORKING_DIRECTORY "${dir2}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("run 2 (${rel} in ${dir2}):\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run 2 failed with ${rc}")
endif()

file(READ "${DIR}/run1.json" r1)
file(READ "${dir2}/rck-sim-report.json" r2)
string(FIND "${r1}" "\"compute_model\": {\"name\": \"${COMPUTE}\"" at)
if(at LESS 0)
  message(FATAL_ERROR "run 1's report does not name the compute model ${COMPUTE}")
endif()
string(JSON n1 LENGTH "${r1}" cores)
string(JSON n2 LENGTH "${r2}" cores)
if(NOT n1 EQUAL NUES OR NOT n2 EQUAL NUES)
  message(FATAL_ERROR "the reports have ${n1} and ${n2} cores, not ${NUES}")
endif()
set(diffs "")
math(EXPR last "${NUES} - 1")
foreach(i RANGE ${last})
  foreach(key cycles compute dram wait)
    string(JSON a GET "${r1}" cores ${i} ${key})
    string(JSON b GET "${r2}" cores ${i} ${key})
    if(NOT a STREQUAL b)
      string(APPEND diffs "  UE ${i} ${key}: ${a} (run 1) against ${b} (run 2)\n")
    endif()
  endforeach()
  string(JSON a GET "${r1}" cores ${i} p54c instructions)
  string(JSON b GET "${r2}" cores ${i} p54c instructions)
  if(NOT a STREQUAL b)
    string(APPEND diffs "  UE ${i} instructions: ${a} (run 1) against ${b} (run 2)\n")
  endif()
  string(JSON c GET "${r1}" cores ${i} cycles)
  message("UE ${i}: ${c} cycles, ${a} instructions")
endforeach()
if(NOT diffs STREQUAL "")
  message(FATAL_ERROR "the chip times depend on the environment, the paths, "
    "the working directory or --report:\n${diffs}"
    "compare ${DIR}/run1.json and ${dir2}/rck-sim-report.json")
endif()
