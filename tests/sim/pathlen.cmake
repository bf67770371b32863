# A run's chip times under a P54C model do not depend on the path the
# program is started by (docs/P54C.md, "Determinism"): the loader copies
# argv[0] first and every later argument after it, so a longer path moved
# the arguments a program reads (sim_stack_argv). PROG is copied into
# three directories whose names differ in length (by 17 and 46 bytes: no
# multiple of a line or of 8), then run:
#   run 1: by its absolute path, in DIR/wd-a, with a 30,000-byte extra
#          environment variable and --report DIR/run1.json;
#   run 2: by its (longer) absolute path, in a working directory of a
#          longer name, without --report (the report goes to the default
#          rck-sim-report.json there);
#   run 3: by a relative path from another working directory, --report.
# Every core's cycles (all, compute, DRAM, waiting), instructions and
# P54C event counts (reads, writes, misses, write-arounds) must be the
# same, and the program must see its argv[0] as given.
#   -DRCK=rck -DNUES=N -DPROG=program -DARGS=a,b -DDIR=output dir
#   -DCOMPUTE=p54c|p54c-fast [-DENGINE=compiled|qemu] [-DMATCH=regex]
set(args)
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "," ";" args "${ARGS}")
endif()
get_filename_component(name "${PROG}" NAME)
file(REMOVE_RECURSE "${DIR}/p" "${DIR}/wd-a" "${DIR}/wd-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
  "${DIR}/wd-c")
file(MAKE_DIRECTORY "${DIR}/wd-a" "${DIR}/wd-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
  "${DIR}/wd-c")
set(progs)
foreach(len 1 18 47)
  string(REPEAT "x" ${len} sub)
  file(MAKE_DIRECTORY "${DIR}/p/${sub}")
  file(COPY "${PROG}" DESTINATION "${DIR}/p/${sub}")
  list(APPEND progs "${DIR}/p/${sub}/${name}")
endforeach()
list(GET progs 0 prog1)
list(GET progs 1 prog2)
list(GET progs 2 prog3)
file(RELATIVE_PATH rel3 "${DIR}/wd-c" "${prog3}")
file(REMOVE "${DIR}/run1.json" "${DIR}/run3.json"
  "${DIR}/wd-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/rck-sim-report.json")
unset(ENV{RCK_SIM_REPORT})
unset(ENV{RCK_REPORT})
unset(ENV{RCK_SIM_TRACE})
set(ENV{RCK_COMPUTE} "${COMPUTE}")
if(DEFINED ENGINE)
  set(ENV{RCK_P54C_ENGINE} "${ENGINE}")
endif()

function(run_one i prog wd)
  execute_process(COMMAND ${RCK} run -n ${NUES} --backend sim ${ARGN}
    ${prog} ${args}
    WORKING_DIRECTORY "${wd}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("run ${i} (${prog} in ${wd}):\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run ${i} failed with ${rc}")
  endif()
  string(FIND "${out}" "(argv[0] ${prog})" at)
  if(at LESS 0)
    message(FATAL_ERROR "run ${i}: the program does not print its argv[0] as "
      "given ('(argv[0] ${prog})')")
  endif()
  if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
    message(FATAL_ERROR "run ${i}'s output does not match '${MATCH}'")
  endif()
endfunction()

string(REPEAT "x" 30000 big)
set(ENV{RCK_TEST_PATHLEN_BIG} "${big}")
run_one(1 "${prog1}" "${DIR}/wd-a" --report "${DIR}/run1.json")
unset(ENV{RCK_TEST_PATHLEN_BIG})
run_one(2 "${prog2}" "${DIR}/wd-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
run_one(3 "${rel3}" "${DIR}/wd-c" --report "${DIR}/run3.json")

file(READ "${DIR}/run1.json" r1)
file(READ "${DIR}/wd-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/rck-sim-report.json" r2)
file(READ "${DIR}/run3.json" r3)
string(FIND "${r1}" "\"compute_model\": {\"name\": \"${COMPUTE}\"" at)
if(at LESS 0)
  message(FATAL_ERROR "run 1's report does not name the compute model ${COMPUTE}")
endif()
set(diffs "")
math(EXPR last "${NUES} - 1")
foreach(i RANGE ${last})
  set(keys)
  foreach(key cycles compute dram wait)
    list(APPEND keys "${key}")
  endforeach()
  foreach(key instructions l1d_reads l1d_writes l1d_misses l1i_misses l2_hits
      l2_misses l2_writebacks write_arounds shm_accesses merged_stores)
    list(APPEND keys "p54c.${key}")
  endforeach()
  foreach(k ${keys})
    string(REPLACE "." ";" key "${k}")
    # (p54c-fast reports no cache events)
    string(JSON a ERROR_VARIABLE none GET "${r1}" cores ${i} ${key})
    foreach(r 2 3)
      string(JSON b ERROR_VARIABLE none GET "${r${r}}" cores ${i} ${key})
      if(NOT a STREQUAL b)
        string(APPEND diffs "  UE ${i} ${k}: ${a} (run 1) against ${b} (run ${r})\n")
      endif()
    endforeach()
  endforeach()
  string(JSON c GET "${r1}" cores ${i} cycles)
  string(JSON n GET "${r1}" cores ${i} p54c instructions)
  string(JSON m ERROR_VARIABLE none GET "${r1}" cores ${i} p54c l1d_misses)
  message("UE ${i}: ${c} cycles, ${n} instructions, L1D misses: ${m}")
endforeach()
if(NOT diffs STREQUAL "")
  message(FATAL_ERROR "the chip times depend on the program's path, the "
    "working directory, the environment or --report:\n${diffs}"
    "compare ${DIR}/run1.json, ${DIR}/run3.json and "
    "${DIR}/wd-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/rck-sim-report.json")
endif()
