# cmake --install <build> [--prefix <dir>] installs what a user of clrt needs:
#
#   include/clrt/*.h                      the API (clrt.h; clrt_cl.h for OpenCL interop)
#   lib/libclrt.so.M.m.p, .so.M.m, .so    the shared library, SONAME libclrt.so.M.m
#   lib/libclrt.a                         the static library: its users define CLRT_STATIC
#   bin/clrt-info, bin/clrt-bench,        the tools, when built
#   bin/clrt-train
#   bin/clrt-isa -> share/clrt/isa/       the offline GPU compiler view (Python, with its
#                                         package clrt_isa and setup.sh, docs/gpu-isa.md)
#   lib/cmake/clrt/                       find_package(clrt): targets clrt::clrt (shared)
#                                         and clrt::clrt_static (defines CLRT_STATIC);
#                                         clrt::clrt_mpi with COMPONENTS mpi
#   lib/libclrt_mpi.so*, clrt_mpi.h       when built with MPI (docs/mpi.md)
#   lib/pkgconfig/clrt.pc                 pkg-config clrt (shared; --static adds the
#                                         private libraries and -DCLRT_STATIC)
#   lib/pkgconfig/clrt-static.pc          pkg-config clrt-static: the archive (linked as
#                                         -lclrt-static: lib/libclrt-static.a -> libclrt.a)
#
# Components: "runtime" (shared library, tools) and "dev" (everything else).
# Included at the end of the top-level CMakeLists.txt, after every target.
include(CMakePackageConfigHelpers)

if(CMAKE_SOURCE_DIR STREQUAL PROJECT_SOURCE_DIR)
  set(_clrt_top_level ON)
else()
  set(_clrt_top_level OFF)
endif()
option(CLRT_INSTALL "Generate clrt's install rules (default: when clrt is the top-level project)"
       ${_clrt_top_level})
if(NOT CLRT_INSTALL)
  return()
endif()

set(CLRT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/clrt" CACHE STRING
    "Where the CMake package files go, relative to the prefix")

# ---- libraries and headers
set_target_properties(clrt PROPERTIES EXPORT_NAME clrt)
set_target_properties(clrt_static PROPERTIES EXPORT_NAME clrt_static)
install(TARGETS clrt clrt_static EXPORT clrtTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT dev
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)
if(TARGET clrt_mpi)
  set(_clrt_mpi_header_rule)
else()
  set(_clrt_mpi_header_rule PATTERN "clrt_mpi.h" EXCLUDE)
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/clrt"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev
  FILES_MATCHING PATTERN "*.h" ${_clrt_mpi_header_rule})

# ---- clrt_mpi, when built: its own export set, so that the package needs
# MPI only for those who ask for it (find_package(clrt COMPONENTS mpi)).
if(TARGET clrt_mpi)
  set_target_properties(clrt_mpi PROPERTIES EXPORT_NAME clrt_mpi)
  install(TARGETS clrt_mpi EXPORT clrtMpiTargets
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT runtime NAMELINK_COMPONENT dev)
  install(EXPORT clrtMpiTargets NAMESPACE clrt:: FILE clrtMpiTargets.cmake
    DESTINATION "${CLRT_INSTALL_CMAKEDIR}" COMPONENT dev)
endif()

# ---- tools, finding the shared library next to them wherever the prefix is
file(RELATIVE_PATH _clrt_bin_to_lib "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_LIBDIR}")
foreach(_tool clrt-info clrt-bench clrt-train)
  if(TARGET ${_tool})
    set_target_properties(${_tool} PROPERTIES INSTALL_RPATH "$ORIGIN/${_clrt_bin_to_lib}")
    install(TARGETS ${_tool} RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT runtime)
  endif()
endforeach()

# ---- clrt-isa: its script, package and setup.sh together in share/clrt/isa (the script
# finds its package beside its real path), bin/clrt-isa a link to the script
set(_clrt_isa_dir "${CMAKE_INSTALL_DATADIR}/clrt/isa")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/tools/isa/clrt_isa" DESTINATION "${_clrt_isa_dir}" COMPONENT runtime
  FILES_MATCHING PATTERN "*.py")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/tools/isa/clrt-isa" "${PROJECT_SOURCE_DIR}/tools/isa/setup.sh"
  DESTINATION "${_clrt_isa_dir}" COMPONENT runtime)
file(RELATIVE_PATH _clrt_bin_to_isa "${CMAKE_INSTALL_FULL_BINDIR}" "${CMAKE_INSTALL_FULL_DATADIR}/clrt/isa")
install(CODE "
  set(_link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/clrt-isa\")
  message(STATUS \"Installing: \${_link} -> ${_clrt_bin_to_isa}/clrt-isa\")
  file(CREATE_LINK \"${_clrt_bin_to_isa}/clrt-isa\" \"\${_link}\" SYMBOLIC)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_link}\")
" COMPONENT runtime)

# ---- CMake package
install(EXPORT clrtTargets NAMESPACE clrt:: FILE clrtTargets.cmake
  DESTINATION "${CLRT_INSTALL_CMAKEDIR}" COMPONENT dev)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/clrtConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/clrtConfig.cmake"
  INSTALL_DESTINATION "${CLRT_INSTALL_CMAKEDIR}")
# 0.x: a new minor version may break the API (the SONAME carries it too).
write_basic_package_version_file("${PROJECT_BINARY_DIR}/clrtConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/clrtConfig.cmake" "${PROJECT_BINARY_DIR}/clrtConfigVersion.cmake"
  DESTINATION "${CLRT_INSTALL_CMAKEDIR}" COMPONENT dev)

# ---- pkg-config
# OpenCL through its own .pc file when the system has one (it gives the
# include path <clrt/clrt_cl.h> needs), else as a plain -lOpenCL.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(_clrt_pc_opencl QUIET OpenCL)
endif()
if(_clrt_pc_opencl_FOUND)
  set(CLRT_PC_REQUIRES_PRIVATE "OpenCL")
  set(CLRT_PC_OPENCL_LIBS "")
else()
  set(CLRT_PC_REQUIRES_PRIVATE "")
  set(CLRT_PC_OPENCL_LIBS "-lOpenCL")
endif()
# the threads library, and libm (the tuner's geometric means)
set(CLRT_PC_THREAD_LIBS "${CMAKE_THREAD_LIBS_INIT} -lm")
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(CLRT_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(CLRT_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()
# The prefix is only known at install time (cmake --install --prefix): fill
# everything else now and leave @CLRT_PC_PREFIX@ for then.
set(CLRT_PC_PREFIX "@CLRT_PC_PREFIX@")
foreach(_pc clrt clrt-static)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/${_pc}.pc.in" "${PROJECT_BINARY_DIR}/pkgconfig/${_pc}.pc.in" @ONLY)
endforeach()
install(CODE "
  set(CLRT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  foreach(_pc clrt clrt-static)
    configure_file(\"${PROJECT_BINARY_DIR}/pkgconfig/\${_pc}.pc.in\"
                   \"${PROJECT_BINARY_DIR}/pkgconfig/install/\${_pc}.pc\" @ONLY)
  endforeach()
  file(INSTALL \"${PROJECT_BINARY_DIR}/pkgconfig/install/clrt.pc\"
               \"${PROJECT_BINARY_DIR}/pkgconfig/install/clrt-static.pc\"
       DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\")
  # clrt-static.pc links -lclrt-static: a name that only the archive has, so
  # that every pkg-config user (CMake's FindPkgConfig too) gets the archive.
  set(_link \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/libclrt-static.a\")
  message(STATUS \"Installing: \${_link} -> $<TARGET_FILE_NAME:clrt_static>\")
  file(CREATE_LINK \"$<TARGET_FILE_NAME:clrt_static>\" \"\${_link}\" SYMBOLIC)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${_link}\")
" COMPONENT dev)
