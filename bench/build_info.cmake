# Writes OUT (bench_build.h) with the git commit of SRC, "unknown" outside a
# checkout and a "-dirty" suffix when tracked files differ from it; the file
# is left untouched when its text would not change, so nothing rebuilds.
execute_process(COMMAND git -C ${SRC} rev-parse HEAD OUTPUT_VARIABLE commit
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
else()
  execute_process(COMMAND git -C ${SRC} diff --quiet HEAD -- RESULT_VARIABLE dirty ERROR_QUIET)
  if(NOT dirty EQUAL 0)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "#define BENCH_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
