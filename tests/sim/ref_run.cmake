# A reference-output test: run a program on the sim backend with the
# deterministic compute model (none) and the SCC chip file, and compare its
# report and Chrome trace byte for byte with tests/sim/ref/NAME.report.json
# and NAME.trace.json (-DUPDATE=1 rewrites them instead).
#   -DRCK=rck -DCHIP=chip.json -DNUES=N -DPROG=program [-DARGS=a,b,c]
#   -DNAME=name -DOUT=output dir -DREF=reference dir [-DUPDATE=1]
include(${CMAKE_CURRENT_LIST_DIR}/refcmp.cmake)
set(args)
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "," ";" args "${ARGS}")
endif()
file(MAKE_DIRECTORY "${OUT}")
set(rep "${OUT}/${NAME}.report.json")
set(trc "${OUT}/${NAME}.trace.json")
file(REMOVE "${rep}" "${trc}")
set(ENV{RCK_SIM_SUMMARY} 0)
execute_process(COMMAND ${RCK} run -n ${NUES} --backend sim --compute none
    --chip ${CHIP} --report ${rep} --trace ${trc} ${PROG} ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NAME}: the run failed with ${rc}:\n${out}${err}")
endif()
rck_ref_compare("${rep}" "${REF}/${NAME}.report.json")
rck_ref_compare("${trc}" "${REF}/${NAME}.trace.json")
