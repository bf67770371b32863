# The compiled counters against QEMU (docs/P54C.md, "Compiled counters"):
# the instructions a loop in C adds to a core's count, with
#   1. the counted binary, compiled engine (the program counts itself),
#   2. the counted binary under QEMU (the plugin skips the counters' adds),
#   3. the same source built without counters, under QEMU,
# must be the same number. Then a chip file with its own CPI table (below).
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

# Under a chip file's own CPI table the counted binary falls back: to QEMU
# when p54c-fast is asked for, to host under the default model (auto).
unset(ENV{RCK_P54C_ENGINE})
set(ENV{RCK_CHIP} ${CHIPS}/cpi-int1.json)
foreach(c "p54c-fast|ccount 10|p54c-fast \\(qemu\\)"
          "auto|stream 4|compute model host")
  string(REPLACE "|" ";" c "${c}")
  list(GET c 0 model)
  list(GET c 1 args)
  list(GET c 2 want)
  separate_arguments(args)
  set(ENV{RCK_COMPUTE} ${model})
  execute_process(COMMAND ${RCK} run -n 1 --backend sim ${COUNTED} ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("own CPI table, ${model}:\n${out}${err}")
  if(NOT rc EQUAL 0 OR NOT "${err}" MATCHES "${want}")
    message(FATAL_ERROR "under a chip file's own CPI table, ${model} did not fall back as it should ('${want}')")
  endif()
endforeach()
