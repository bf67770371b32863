# The compiled counters against QEMU (docs/P54C.md, "Compiled counters"):
# the instructions a loop in C adds to a core's count, with
#   1. the counted binary, compiled engine (the program counts itself),
#   2. the counted binary under QEMU (the plugin skips the counters' adds),
#   3. the same source built without counters, under QEMU,
# must be the same number. Then a chip file with its own CPI table: the
# counted binary falls back to QEMU under auto.
#   -DRCK=rck -DCOUNTED=prog -DPLAIN=prog -DCHIPS=dir
set(ENV{RCK_COMPUTE} p54c-fast)
set(ENV{RCK_SIM_REPORT} none)
set(n 20000)
set(runs "compiled|${COUNTED}" "qemu|${COUNTED}" "qemu|${PLAIN}")
set(first "")
foreach(r ${runs})
  string(REPLACE "|" ";" r "${r}")
  list(GET r 0 engine)
  list(GET r 1 prog)
  set(ENV{RCK_P54C_ENGINE} ${engine})
  execute_process(COMMAND ${RCK} run -n 1 --backend sim ${prog} ccount ${n}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${engine} ${prog}:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the run failed (${rc})")
  endif()
  if(NOT "${err}" MATCHES "p54c-fast \\(${engine}\\)")
    message(FATAL_ERROR "the run did not count with the ${engine} engine")
  endif()
  if(NOT "${out}" MATCHES "C loop of ${n} iterations: ([0-9]+) instructions more[^:]*: ([0-9]+)")
    message(FATAL_ERROR "no count in the output")
  endif()
  set(d "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
  if(CMAKE_MATCH_1 LESS ${n} OR CMAKE_MATCH_2 LESS ${n})
    message(FATAL_ERROR "${d} instructions for ${n} iterations: too few")
  endif()
  if(first STREQUAL "")
    set(first ${d})
  elseif(NOT d STREQUAL first)
    message(FATAL_ERROR "the engines disagree: ${first} and ${d} instructions")
  endif()
endforeach()
message("all three: ${first} instructions for ${n} iterations")

unset(ENV{RCK_P54C_ENGINE})
set(ENV{RCK_CHIP} ${CHIPS}/cpi-int1.json)
execute_process(COMMAND ${RCK} run -n 1 --backend sim ${COUNTED} ccount 10
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("own CPI table:\n${out}${err}")
if(NOT rc EQUAL 0 OR NOT "${err}" MATCHES "p54c-fast \\(qemu\\)")
  message(FATAL_ERROR "under a chip file's own CPI table the counted binary did not fall back to QEMU")
endif()

# ... and under the default model (auto), the host model instead
set(ENV{RCK_COMPUTE} auto)
execute_process(COMMAND ${RCK} run -n 1 --backend sim ${COUNTED} stream 4
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("own CPI table, auto:\n${out}${err}")
if(NOT rc EQUAL 0 OR NOT "${err}" MATCHES "compute model host")
  message(FATAL_ERROR "under a chip file's own CPI table auto did not fall back to host")
endif()
