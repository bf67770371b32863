# The communication matrix and the message log of comm_pattern.c on one
# backend: every entry of the report's "comm" against the pattern (the
# bcast's part of rcce: whatever its tree, 64 bytes in one message into
# every UE but the root), and the message log's lines.
#   -DRCK=rck -DBACKEND=native|sim|mpi -DPROG=comm_pattern -DOUT=dir
set(n 4)
file(MAKE_DIRECTORY "${OUT}")
set(rep "${OUT}/comm-${BACKEND}.json")
set(log "${OUT}/comm-${BACKEND}.msglog")
file(REMOVE "${rep}")
file(WRITE "${log}" "stale line from an earlier run\n")
set(ENV{RCK_SIM_SUMMARY} 0)
set(ENV{RCK_COMPUTE} none)
execute_process(COMMAND ${RCK} run -n ${n} --backend ${BACKEND}
    --report ${rep} --msglog ${log} ${PROG}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run failed with ${rc}")
endif()
file(READ "${rep}" json)
string(JSON ues GET "${json}" comm ues)
if(NOT ues EQUAL n)
  message(FATAL_ERROR "comm.ues is ${ues}, not ${n}")
endif()
string(JSON libs GET "${json}" comm libraries)
string(REGEX REPLACE "[][\" ]" "" libs "${libs}")
# the libraries the report always lists (RCK_LIB_LISTED); on the mpi
# backend the rank that writes the report knows only its program's
# libraries, and this program has no librckmpi: no "mpi" row there
set(_libs rcce ircce mbox chan svm mpi)
if(BACKEND STREQUAL "mpi")
  list(REMOVE_ITEM _libs mpi)
endif()
string(REPLACE ";" "," _want "${_libs}")
if(NOT libs STREQUAL "${_want}")
  message(FATAL_ERROR "comm.libraries is ${libs}")
endif()
math(EXPR last "${n} - 1")
foreach(j RANGE ${last})
  set(bc_${j} 0)
endforeach()
foreach(lib ${_libs})
  foreach(i RANGE ${last})
    math(EXPR next "(${i} + 1) % ${n}")
    math(EXPR prev "(${i} + ${n} - 1) % ${n}")
    math(EXPR next2 "(${i} + 2) % ${n}")
    foreach(j RANGE ${last})
      set(b 0)
      set(m 0)
      if(lib STREQUAL "rcce")
        if(j EQUAL next)
          math(EXPR b "${b} + 1000")
          math(EXPR m "${m} + 1")
        endif()
        if(j EQUAL 0 AND NOT i EQUAL 0)
          math(EXPR b "${b} + 100 + ${i}")
          math(EXPR m "${m} + 1")
        endif()
      elseif(lib STREQUAL "ircce" AND j EQUAL prev)
        set(b 300)
        set(m 1)
      elseif(lib STREQUAL "mbox" AND j EQUAL next2)
        set(b 8)
        set(m 1)
      elseif(lib STREQUAL "chan" AND j EQUAL next)
        math(EXPR even "${i} % 2")
        if(even EQUAL 0)
          set(b 40)
          set(m 1)
        endif()
      endif()
      string(JSON gb GET "${json}" comm bytes ${lib} ${i} ${j})
      string(JSON gm GET "${json}" comm messages ${lib} ${i} ${j})
      if(lib STREQUAL "rcce" AND gb GREATER_EQUAL b AND gm GREATER_EQUAL m)
        # what is left is the bcast's: 64 bytes a message
        math(EXPR rb "${gb} - ${b}")
        math(EXPR rm "${gm} - ${m}")
        math(EXPR want "${rm} * 64")
        if(NOT rb EQUAL want)
          message(FATAL_ERROR "comm rcce UE ${i} -> UE ${j}: ${gb} bytes in "
            "${gm} messages, not ${b} in ${m} plus bcast messages of 64")
        endif()
        math(EXPR bc_${j} "${bc_${j}} + ${rm}")
        set(b ${gb})
        set(m ${gm})
      endif()
      if(NOT gb EQUAL b OR NOT gm EQUAL m)
        message(FATAL_ERROR "comm ${lib} UE ${i} -> UE ${j}: ${gb} bytes in "
          "${gm} messages, expected ${b} in ${m}")
      endif()
    endforeach()
  endforeach()
endforeach()

foreach(j RANGE ${last})
  if((j EQUAL 0 AND NOT bc_${j} EQUAL 0) OR
     (NOT j EQUAL 0 AND NOT bc_${j} EQUAL 1))
    message(FATAL_ERROR "comm rcce: UE ${j} received ${bc_${j}} bcast "
      "messages")
  endif()
endforeach()

# The message log: the earlier contents are gone, every line is a JSON
# object, 20 sends and 20 receives on 4 UEs.
file(STRINGS "${log}" lines)
set(sends 0)
set(recvs 0)
foreach(line IN LISTS lines)
  string(JSON op ERROR_VARIABLE bad GET "${line}" op)
  if(bad)
    message(FATAL_ERROR "message log: not a JSON object: ${line}")
  endif()
  string(JSON t GET "${line}" t)
  if(t LESS 0)
    message(FATAL_ERROR "message log: negative time: ${line}")
  endif()
  if(op STREQUAL "send")
    math(EXPR sends "${sends} + 1")
  elseif(op STREQUAL "recv")
    math(EXPR recvs "${recvs} + 1")
  else()
    message(FATAL_ERROR "message log: op ${op}: ${line}")
  endif()
endforeach()
if(NOT sends EQUAL 20 OR NOT recvs EQUAL 20)
  message(FATAL_ERROR "message log: ${sends} sends and ${recvs} receives, "
    "expected 20 and 20")
endif()
file(READ "${log}" all)
foreach(re
    "\"ue\": 1, \"op\": \"send\", \"peer\": 2, \"bytes\": 1000, \"lib\": \"rcce\", \"call\": \"RCCE_send\"}"
    "\"ue\": 2, \"op\": \"recv\", \"peer\": 1, \"bytes\": 1000, \"lib\": \"rcce\", \"call\": \"RCCE_recv\"}"
    "\"ue\": 3, \"op\": \"send\", \"peer\": 0, \"bytes\": 103, \"lib\": \"rcce\""
    "\"ue\": 0, \"op\": \"send\", \"peer\": 3, \"bytes\": 300, \"lib\": \"ircce\""
    "\"ue\": 3, \"op\": \"recv\", \"peer\": 0, \"bytes\": 300, \"lib\": \"ircce\""
    "\"ue\": 1, \"op\": \"send\", \"peer\": 3, \"bytes\": 8, \"lib\": \"mbox\", \"call\": \"rck_mbox_send\"}"
    "\"ue\": 3, \"op\": \"recv\", \"peer\": 1, \"bytes\": 8, \"lib\": \"mbox\""
    "\"ue\": 2, \"op\": \"send\", \"peer\": 3, \"bytes\": 40, \"lib\": \"chan\", \"call\": \"rck_chan_send\"}"
    "\"ue\": 1, \"op\": \"recv\", \"peer\": 0, \"bytes\": 40, \"lib\": \"chan\", \"call\": \"rck_chan_recv\"}")
  string(FIND "${all}" "${re}" at)
  if(at LESS 0)
    message(FATAL_ERROR "message log: no line with ${re}")
  endif()
endforeach()
if(NOT all MATCHES "\"op\": \"recv\", \"peer\": [0-9]+, \"bytes\": 64, \"lib\": \"rcce\", \"call\": \"RCCE_comm_bcast\"}")
  message(FATAL_ERROR "message log: no receive of the bcast")
endif()
