# Installs the build tree into a scratch prefix, then configures, builds and runs
# examples/find_package against it - the way another project consumes fastblur.
# With -DPYTHON (the interpreter) and -DPYTHON_DIR (the package's install directory under the
# prefix), it also imports the installed Python package and checks that the directory, under
# /usr/local, is on that interpreter's sys.path (where Debian's python3 finds it).
# Arguments: -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... [-DPYTHON=... -DPYTHON_DIR=...]
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/find_package" -B "${WORK_DIR}/build"
                        -G "${GENERATOR}" -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the example against the installed fastblur failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/build" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the example failed: ${rc}")
endif()
execute_process(COMMAND "${WORK_DIR}/build/blur_example" RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the example failed: ${rc}")
endif()
if(PYTHON)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_DIR}"
                          ${PYTHON} -c "import fastblur, numpy; a = numpy.zeros((8, 8), numpy.float32); a[4, 4] = 1; \
assert abs(fastblur.gaussian_filter(a, 1.0).sum() - 1) < 1e-5; print(fastblur.__file__)"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE where ERROR_VARIABLE err)
  if(rc OR NOT where MATCHES "^${WORK_DIR}/prefix/")
    message(FATAL_ERROR "the installed Python package does not import from ${PYTHON_DIR}: ${rc} ${where} ${err}")
  endif()
  if(NOT PYTHON_DIR MATCHES "^/")
    execute_process(COMMAND ${PYTHON} -c "import sys; print('/usr/local/${PYTHON_DIR}' in sys.path)"
                    OUTPUT_VARIABLE on_path OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT on_path STREQUAL "True")
      message(FATAL_ERROR "/usr/local/${PYTHON_DIR} is not on ${PYTHON}'s sys.path")
    endif()
  endif()
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
