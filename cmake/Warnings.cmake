# clrt_warnings(<target>): the warnings every clrt target builds with.
# CLRT_WERROR (CI turns it on) makes them errors.
option(CLRT_WERROR "Treat compiler warnings as errors" OFF)

function(clrt_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wstrict-prototypes
                                             -Wmissing-prototypes -Wformat=2 -Wvla)
    if(CLRT_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
