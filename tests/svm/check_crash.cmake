# Run a program that must crash under `rck run` and check what is said.
#   -DRCK=rck -DNUES=N -DBACKEND=native|sim -DPROG=program [-DARGS=a,b]
#   [-DMATCH_<k>=regex ...]  must match stdout+stderr (k = 1..9)
set(args)
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "," ";" args "${ARGS}")
endif()
execute_process(COMMAND ${RCK} run -n ${NUES} --backend ${BACKEND} ${PROG}
                        ${args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a failure, rck exited with 0")
endif()
foreach(k RANGE 1 9)
  if(DEFINED MATCH_${k} AND NOT all MATCHES "${MATCH_${k}}")
    message(FATAL_ERROR "output does not match '${MATCH_${k}}'")
  endif()
endforeach()
