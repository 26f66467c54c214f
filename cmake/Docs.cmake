# The `docs` target: the API reference from the public headers, with Doxygen
# (Debian: apt-get install doxygen), into <build>/docs/html/index.html.
# Undocumented public declarations are warnings, and warnings fail the build.
find_package(Doxygen QUIET)
if(DOXYGEN_FOUND)
  set(CLRT_DOCS_OUTPUT "${PROJECT_BINARY_DIR}/docs")
  # clrt_mpi.h is part of the reference when clrt_mpi is built
  set(CLRT_DOCS_MPI_HEADER "")
  if(TARGET clrt_mpi)
    set(CLRT_DOCS_MPI_HEADER "${PROJECT_SOURCE_DIR}/include/clrt/clrt_mpi.h")
  endif()
  configure_file("${PROJECT_SOURCE_DIR}/docs/Doxyfile.in" "${CLRT_DOCS_OUTPUT}/Doxyfile" @ONLY)
  add_custom_target(docs
    COMMAND Doxygen::doxygen "${CLRT_DOCS_OUTPUT}/Doxyfile"
    WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
    COMMENT "API reference: ${CLRT_DOCS_OUTPUT}/html/index.html"
    VERBATIM)
  if(CLRT_INSTALL)
    # installed only when built first (cmake --build <build> --target docs)
    install(DIRECTORY "${CLRT_DOCS_OUTPUT}/html" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT doc
            OPTIONAL)
  endif()
else()
  add_custom_target(docs
    COMMAND "${CMAKE_COMMAND}" -E echo "docs: Doxygen not found (Debian: apt-get install doxygen)"
    COMMAND "${CMAKE_COMMAND}" -E false
    VERBATIM)
endif()
