# CLRT_SANITIZE: a -fsanitize= list applied to everything built here,
# e.g. "address,undefined" or "thread". Empty (the default) for none.
set(CLRT_SANITIZE "" CACHE STRING "Sanitizers to build with (-fsanitize=...), e.g. address,undefined")

if(CLRT_SANITIZE)
  add_compile_options(-fsanitize=${CLRT_SANITIZE} -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${CLRT_SANITIZE})
  if(CLRT_SANITIZE MATCHES "undefined")
    # a UBSan finding must fail the run, not scroll past
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()
