# A core stalled on memory draws the power the model gives a stalled core,
# whichever engine booked the stall (docs/POWER.md): on N UEs under the
# p54c model, run 1 has all N UEs read KB KiB of uncached shared DRAM, run
# 2 only 2 of them (the others wait in a barrier). Required:
#   * run 1's average power >= run 2's (a memory-bound run on more cores
#     never draws less than on fewer);
#   * in run 2, a reading core's energy > a waiting core's.
#   -DRCK=rck -DPROG=power_stall -DNUES=N -DKB=KiB -DDIR=output dir
#   [-DTAG=name of the reports] [-DMATCH=regex every run's output matches]
set(ENV{RCK_COMPUTE} p54c)
unset(ENV{RCK_SIM_TRACE})
foreach(k ${NUES} 2)
  set(rep "${DIR}/power_stall${TAG}_${k}.json")
  file(REMOVE "${rep}")
  set(ENV{RCK_SIM_REPORT} "${rep}")
  execute_process(COMMAND ${RCK} run -n ${NUES} --backend sim ${PROG} ${k} ${KB}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${k} of ${NUES} UEs reading:\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the run with ${k} readers failed with ${rc}")
  endif()
  if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
    message(FATAL_ERROR "the run with ${k} readers does not match '${MATCH}'")
  endif()
  file(READ "${rep}" r)
  string(JSON w${k} GET "${r}" power avg_w)
  string(JSON dram GET "${r}" cores 0 dram)
  if(dram EQUAL 0)
    message(FATAL_ERROR "UE 0 was never stalled on DRAM: not the p54c model?")
  endif()
  if(k EQUAL 2)
    string(JSON core_first GET "${r}" cores 0 core)
    math(EXPR last "${NUES} - 1")
    string(JSON core_last GET "${r}" cores ${last} core)
    string(JSON e_read GET "${r}" energy per_core_j ${core_first})
    string(JSON e_wait GET "${r}" energy per_core_j ${core_last})
  endif()
endforeach()
message("average power: ${w${NUES}} W with ${NUES} readers, ${w2} W with 2; "
  "with 2: a reading core ${e_read} J, a waiting one ${e_wait} J")
if(w${NUES} LESS w2)
  message(FATAL_ERROR "${NUES} cores stalled on DRAM draw less (${w${NUES}} W) "
    "than 2 with ${NUES}-2 waiting (${w2} W): a stall is charged no power")
endif()
if(NOT e_read GREATER e_wait)
  message(FATAL_ERROR "a core stalled on DRAM used ${e_read} J, less than a "
    "waiting one (${e_wait} J)")
endif()
