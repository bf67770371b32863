# rck_ref_compare(ACTUAL EXPECTED): require the file ACTUAL to be byte for
# byte the checked-in reference EXPECTED; with UPDATE set, copy ACTUAL over
# EXPECTED instead. On a difference, print a unified diff (its first 6,000
# bytes) and how to regenerate the references when the change is meant.
# Included by ref_run.cmake and determinism.cmake.
function(rck_ref_compare actual expected)
  if(UPDATE)
    execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different
      "${actual}" "${expected}")
    message("updated ${expected}")
    return()
  endif()
  if(NOT EXISTS "${expected}")
    message(FATAL_ERROR "no reference ${expected}; create it with "
      "`make update-ref` (cmake --build <build> --target update-ref)")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
    "${expected}" "${actual}" RESULT_VARIABLE differ)
  if(NOT differ)
    return()
  endif()
  find_program(_rck_diff diff)
  if(_rck_diff)
    execute_process(COMMAND ${_rck_diff} -u --label "${expected} (reference)"
      --label "${actual} (this run)" "${expected}" "${actual}"
      OUTPUT_VARIABLE d)
    string(LENGTH "${d}" n)
    if(n GREATER 6000)
      string(SUBSTRING "${d}" 0 6000 d)
      set(d "${d}\n... (${n} bytes of diff in all)\n")
    endif()
    message("${d}")
  endif()
  message(FATAL_ERROR "${actual} differs from the reference ${expected}"
    " (diff above). If a cost or the output format changed on purpose, regenerate the "
    "references with `make update-ref` (cmake --build <build> --target "
    "update-ref) and commit tests/sim/ref/ with the change.")
endfunction()
