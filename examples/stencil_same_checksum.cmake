# Runs the stencil example with several numbers of UEs and fails unless the
# iteration count, final residual and checksums are identical.
#   cmake -DRCK=rck -DSTENCIL=stencil -DUES=1,4,48 -DARGS=-n,96,-i,60 -P this
foreach(var RCK STENCIL UES)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "stencil_same_checksum: -D${var}=... is required")
  endif()
endforeach()
string(REPLACE "," ";" ues "${UES}")
string(REPLACE "," ";" args "${ARGS}")

set(reference "")
foreach(n IN LISTS ues)
  execute_process(COMMAND ${RCK} run -n ${n} ${STENCIL} ${args}
    OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "stencil on ${n} UEs failed (${rc}):\n${out}\n${err}")
  endif()
  string(REGEX MATCH "stencil: done: [^\n]*" done "${out}")
  string(REGEX MATCH "stencil: checksum [^\n]*" sum "${out}")
  if(done STREQUAL "" OR sum STREQUAL "")
    message(FATAL_ERROR "stencil on ${n} UEs printed no result:\n${out}\n${err}")
  endif()
  set(result "${done} / ${sum}")
  message(STATUS "${n} UEs: ${result}")
  if(reference STREQUAL "")
    set(reference "${result}")
    set(reference_ues ${n})
  elseif(NOT result STREQUAL reference)
    message(FATAL_ERROR "stencil result differs:\n"
      "  ${reference_ues} UEs: ${reference}\n  ${n} UEs: ${result}")
  endif()
endforeach()
message(STATUS "stencil result identical on ${UES} UEs")
