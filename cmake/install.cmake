# Install rules: headers, the shared and static library, the tools, the
# chip files, pkg-config files (rockcreek.pc, rckmpi.pc) and a CMake
# package (find_package(rockcreek) gives rockcreek::rockcreek and
# rockcreek::rockcreek_static).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RCK_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/rockcreek)
set(RCK_INSTALL_CHIPDIR ${CMAKE_INSTALL_DATADIR}/rockcreek/chips)

# Public headers: RCCE.h, and whatever else include/ holds (iRCCE.h, ...).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

install(TARGETS rockcreek rockcreek_static rckmpi rckmpi_static
  EXPORT rockcreekTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

if(TARGET rck_as)
  # gcc -B<libexecdir>/rockcreek/ runs it as `as` (rckcc)
  install(TARGETS rck_as RUNTIME
    DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/rockcreek)
  install(FILES ${CMAKE_SOURCE_DIR}/tools/rck_shadow.ld
    DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/rockcreek)
endif()
if(TARGET rck)
  install(TARGETS rck rccerun RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # `rck report` runs this package (src/tools/report.c looks for it at
  # <bindir>/../share/rockcreek/python)
  install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/src/rockcreek
    DESTINATION ${CMAKE_INSTALL_DATADIR}/rockcreek/python
    PATTERN "__pycache__" EXCLUDE)
endif()
# rockcreek.rcce's compiled module (python/CMakeLists.txt), where it looks
# for it beside the library: <libdir>/rockcreek/python (run path
# $ORIGIN/../.., so it loads the installed librockcreek)
if(TARGET rockcreek_pyext)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/python/
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/rockcreek/python
    FILES_MATCHING PATTERN "_rockcreek_rcce*.so"
    PATTERN "cffi-tmp" EXCLUDE)
endif()

# Chip configurations; the default one (with the published figures filled
# in) is also built into the library; the published figures themselves.
install(FILES ${RCK_DEFAULT_CHIP_JSON} DESTINATION ${RCK_INSTALL_CHIPDIR})
install(FILES ${RCK_PUBLISHED_JSON} DESTINATION ${CMAKE_INSTALL_DATADIR}/rockcreek)
file(GLOB _rck_chip_files ${CMAKE_SOURCE_DIR}/config/chips/*.json)
list(REMOVE_ITEM _rck_chip_files ${RCK_CHIP_SOURCE_JSON})
if(_rck_chip_files)
  install(FILES ${_rck_chip_files} DESTINATION ${RCK_INSTALL_CHIPDIR})
endif()

# rckcc for the install tree, configured at install time so that
# `cmake --install --prefix DIR` and DESTDIR give the right paths.
foreach(_d INCLUDEDIR LIBDIR BINDIR LIBEXECDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_d}}")
    set(_rck_${_d} "${CMAKE_INSTALL_${_d}}")
  else()
    set(_rck_${_d} "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_${_d}}")
  endif()
endforeach()
if(TARGET rck_as)
  set(_rck_asdir "${_rck_LIBEXECDIR}/rockcreek")
else()
  set(_rck_asdir "")
endif()
install(CODE "
  set(RCKCC_INCDIR \"${_rck_INCLUDEDIR}\")
  set(RCKCC_LIBDIR \"${_rck_LIBDIR}\")
  set(RCKCC_VERSION \"${PROJECT_VERSION}\")
  set(RCKCC_EXTRA \"${RCKCC_EXTRA}\")
  set(RCKCC_ZLIB \"${RCKCC_ZLIB}\")
  set(RCKCC_HAVE_IP \"${RCKCC_HAVE_IP}\")
  set(RCKCC_ASDIR \"${_rck_asdir}\")
  set(RCKCC_COUNT_DEFAULT \"${RCKCC_COUNT_DEFAULT}\")
  set(RCKCC_COUNT_DEFAULT_WORD \"${RCKCC_COUNT_DEFAULT_WORD}\")
  set(RCK_STATIC_LINK_FLAGS \"${RCK_STATIC_LINK_FLAGS}\")
  foreach(_rck_lang c c++ mpi mpicxx)
    set(RCKCC_LANG \${_rck_lang})
    set(RCKCC_LIB rockcreek)
    if(_rck_lang STREQUAL c)
      set(_rck_tmp \"${CMAKE_BINARY_DIR}/install-rckcc/rckcc\")
    elseif(_rck_lang STREQUAL mpi)
      set(RCKCC_LANG c)
      set(RCKCC_LIB rckmpi)
      set(_rck_tmp \"${CMAKE_BINARY_DIR}/install-rckcc/rckmpicc\")
    elseif(_rck_lang STREQUAL mpicxx)
      set(RCKCC_LANG c++)
      set(RCKCC_LIB rckmpi)
      set(_rck_tmp \"${CMAKE_BINARY_DIR}/install-rckcc/rckmpic++\")
    else()
      set(_rck_tmp \"${CMAKE_BINARY_DIR}/install-rckcc/rckc++\")
    endif()
    configure_file(\"${CMAKE_SOURCE_DIR}/tools/rckcc.in\" \"\${_rck_tmp}\" @ONLY)
    file(INSTALL DESTINATION \"${_rck_BINDIR}\" TYPE PROGRAM
      FILES \"\${_rck_tmp}\")
  endforeach()
  set(RCKMPIEXEC_RCK \"${_rck_BINDIR}/rck\")
  configure_file(\"${CMAKE_SOURCE_DIR}/tools/rckmpiexec.in\"
    \"${CMAKE_BINARY_DIR}/install-rckcc/rckmpiexec\" @ONLY)
  file(INSTALL DESTINATION \"${_rck_BINDIR}\" TYPE PROGRAM
    FILES \"${CMAKE_BINARY_DIR}/install-rckcc/rckmpiexec\")
")

# pkg-config: `cc $(pkg-config --cflags --libs rockcreek) ...`
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(_rck_pc_incdir "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(_rck_pc_incdir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(_rck_pc_libdir "${CMAKE_INSTALL_LIBDIR}")
else()
  set(_rck_pc_libdir "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
# The prefix is only known at install time: @_RCK_PC_PREFIX@ stays for then.
# zlib (compressed traces) when the build has it
if(ZLIB_FOUND)
  set(_rck_pc_zlib " zlib")
else()
  set(_rck_pc_zlib "")
endif()
file(WRITE ${CMAKE_BINARY_DIR}/rockcreek.pc.in-prefix
"prefix=@_RCK_PC_PREFIX@
includedir=${_rck_pc_incdir}
libdir=${_rck_pc_libdir}

Name: rockcreek
Description: Emulator of the Intel Single-chip Cloud Computer (RCCE API)
Version: ${PROJECT_VERSION}
Cflags: -std=gnu11 -I\${includedir}
Requires.private: jansson${_rck_pc_zlib}
Libs: -L\${libdir} -lrockcreek
Libs.private: ${RCK_STATIC_LINK_FLAGS} -lpthread -lm
")
# `cc $(pkg-config --cflags --libs rckmpi) ...`, as rckmpicc does: the
# shared librckmpi carries librockcreek; a --static link adds librockcreek.a
# (Requires.private) after librckmpi.a.
file(WRITE ${CMAKE_BINARY_DIR}/rckmpi.pc.in-prefix
"prefix=@_RCK_PC_PREFIX@
includedir=${_rck_pc_incdir}
libdir=${_rck_pc_libdir}

Name: rckmpi
Description: MPI on the message passing buffers of the SCC (librckmpi)
Version: ${PROJECT_VERSION}
Cflags: -I\${includedir}/rckmpi -I\${includedir}
Requires.private: rockcreek = ${PROJECT_VERSION}
Libs: -L\${libdir} -lrckmpi
Libs.private: -Wl,--undefined=rckmpi_settings_registered
")
install(CODE "
  set(_RCK_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  foreach(_rck_pc rockcreek rckmpi)
    set(_rck_tmp \"${CMAKE_BINARY_DIR}/install-rckcc/\${_rck_pc}.pc\")
    configure_file(\"${CMAKE_BINARY_DIR}/\${_rck_pc}.pc.in-prefix\"
      \"\${_rck_tmp}\" @ONLY)
    file(INSTALL DESTINATION \"${_rck_LIBDIR}/pkgconfig\" TYPE FILE
      FILES \"\${_rck_tmp}\")
  endforeach()
")

# CMake package.
install(EXPORT rockcreekTargets
  NAMESPACE rockcreek::
  DESTINATION ${RCK_INSTALL_CMAKEDIR})
file(WRITE ${CMAKE_BINARY_DIR}/rockcreekConfig.cmake.in
"@PACKAGE_INIT@

# rockcreek::rockcreek_static needs jansson at link time (the shared
# library carries it): the same pkg-config module the build used.
include(CMakeFindDependencyMacro)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::JANSSON)
  pkg_check_modules(JANSSON QUIET IMPORTED_TARGET jansson>=2.11)
  if(NOT TARGET PkgConfig::JANSSON)
    set(rockcreek_FOUND FALSE)
    set(rockcreek_NOT_FOUND_MESSAGE
      \"rockcreek needs jansson (pkg-config module jansson, Debian libjansson-dev)\")
    return()
  endif()
endif()

if(\"${ZLIB_FOUND}\")
  find_dependency(ZLIB)
endif()
include(\"\${CMAKE_CURRENT_LIST_DIR}/rockcreekTargets.cmake\")
set_and_check(rockcreek_INCLUDE_DIR \"@PACKAGE_CMAKE_INSTALL_INCLUDEDIR@\")
set(rockcreek_LIBRARIES rockcreek::rockcreek)
# S-Net: rck_snet_add_network() (docs/SNET.md)
include(\"\${CMAKE_CURRENT_LIST_DIR}/RckSnet.cmake\" OPTIONAL)
check_required_components(rockcreek)
")
configure_package_config_file(
  ${CMAKE_BINARY_DIR}/rockcreekConfig.cmake.in
  ${CMAKE_BINARY_DIR}/rockcreekConfig.cmake
  INSTALL_DESTINATION ${RCK_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/rockcreekConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/rockcreekConfig.cmake
  ${CMAKE_BINARY_DIR}/rockcreekConfigVersion.cmake
  DESTINATION ${RCK_INSTALL_CMAKEDIR})
