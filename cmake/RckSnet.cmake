# rck_snet_add_network(TARGET SNET net.snet [SOURCES box.c...]
#                      [INCLUDES dir...] [DISTRIB mpi])
# A program from an S-Net network and its C boxes: rck-snetc writes the
# network's C (build/.../TARGET.snet.c), which is built with the box
# sources against librcksnet. Run it with `rck run -n 1 ./TARGET < in.xml`.
# In this tree it uses the targets rck_snetc and rcksnet; in a project
# that did find_package(rockcreek), rockcreek::rck_snetc and
# rockcreek::rcksnet. (docs/SNET.md; by hand: `rck snetc net.snet boxes.c
# -o app`.) DISTRIB mpi links librcksnet_mpi instead: the runtime with the
# MPI distribution layer too, over librckmpi (RCK_SNET_DIST=mpi).
function(rck_snet_add_network target)
  cmake_parse_arguments(S "" "SNET;DISTRIB" "SOURCES;INCLUDES" ${ARGN})
  if(NOT S_SNET)
    message(FATAL_ERROR "rck_snet_add_network(${target}): SNET is required")
  endif()
  get_filename_component(_snet ${S_SNET} ABSOLUTE)
  set(_c ${CMAKE_CURRENT_BINARY_DIR}/${target}.snet.c)
  # DISTRIB mpi: the runtime with the MPI layer (librcksnet_mpi, over
  # librckmpi); any other value or none: librcksnet (nodist and scc)
  set(_suffix)
  if(S_DISTRIB STREQUAL "mpi")
    set(_suffix _mpi)
  endif()
  if(TARGET rck_snetc)
    set(_snetc rck_snetc)
    set(_lib rcksnet${_suffix})
  else()
    set(_snetc rockcreek::rck_snetc)
    set(_lib rockcreek::rcksnet${_suffix})
  endif()
  add_custom_command(OUTPUT ${_c}
    COMMAND ${_snetc} -C ${_snet} -o ${_c}
    DEPENDS ${_snetc} ${_snet}
    COMMENT "rck-snetc ${S_SNET}")
  add_executable(${target} ${_c} ${S_SOURCES})
  target_link_libraries(${target} PRIVATE ${_lib})
  if(S_INCLUDES)
    target_include_directories(${target} PRIVATE ${S_INCLUDES})
  endif()
endfunction()
