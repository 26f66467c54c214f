# Turns one OpenCL C file, or several as one program, into a C source defining
#   const char <SYMBOL>[] = { ...bytes..., 0 };
# with the kernel prelude (cl/common.cl) in front and a #line directive before
# each file, so that build logs name the kernel's own file and lines.
# Run as a script at build time (see clrt_embed_cl below), so that editing a
# .cl file, or the prelude, rebuilds the library.
# Usage when included: clrt_embed_cl(<out-var> PRELUDE <common.cl> <file>...)
# (a symbol per file) and clrt_embed_cl_bundle(<out-var> <stem> PRELUDE
# <common.cl> <file>... [VARIANTS ...]) (one symbol, clrt__cl_<stem>, for the
# files together, optionally once per variant).

if(CMAKE_SCRIPT_MODE_FILE)
  # Script mode: -DPRELUDE=<common.cl> -DINPUT=<file.cl>[|<file.cl>...] -DOUTPUT=<file.c> -DSYMBOL=<name>
  # [-DVARIANTS=NAME=VALUE,...|NAME=VALUE,...]: the files once per variant, each copy
  # between #defines of its NAME=VALUE pairs and their #undefs
  file(READ "${PRELUDE}" hex HEX)
  string(REPLACE "|" ";" inputs "${INPUT}")
  set(variants "-") # "-": one copy, no defines
  if(DEFINED VARIANTS)
    string(REPLACE "|" ";" variants "${VARIANTS}")
  endif()
  set(names)
  foreach(input IN LISTS inputs)
    get_filename_component(name "${input}" NAME)
    list(APPEND names "cl/${name}")
  endforeach()
  foreach(variant IN LISTS variants)
    set(defines "")
    set(undefs "")
    if(NOT variant STREQUAL "-")
      string(REPLACE "," ";" pairs "${variant}")
      foreach(pair IN LISTS pairs)
        string(REPLACE "=" " " define "${pair}")
        string(REGEX REPLACE "=.*" "" macro "${pair}")
        string(APPEND defines "#define ${define}\n")
        string(APPEND undefs "#undef ${macro}\n")
      endforeach()
    endif()
    string(HEX "\n${defines}" defines_hex)
    string(APPEND hex "${defines_hex}")
    foreach(input IN LISTS inputs)
      get_filename_component(name "${input}" NAME)
      string(HEX "\n#line 1 \"${name}\"\n" line_hex)
      file(READ "${input}" file_hex HEX)
      string(APPEND hex "${line_hex}${file_hex}")
    endforeach()
    string(HEX "\n${undefs}" undefs_hex)
    string(APPEND hex "${undefs_hex}")
  endforeach()
  list(JOIN names ", " name)
  # 0x.. for every byte, a line break every 16 bytes to keep compilers happy
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
  get_filename_component(prelude_name "${PRELUDE}" NAME)
  file(WRITE "${OUTPUT}"
    "/* Generated from cl/${prelude_name} and ${name} by cmake/EmbedCL.cmake. Do not edit. */\n"
    "extern const char ${SYMBOL}[];\n"
    "const char ${SYMBOL}[] = {\n    ${bytes}0x00};\n")
  return()
endif()

set(CLRT_EMBED_SCRIPT "${CMAKE_CURRENT_LIST_FILE}")

# clrt_embed_cl(<out-var> PRELUDE <common.cl> <file.cl>...): C sources named
# clrt_cl_<stem>.c in the build tree, each defining clrt__cl_<stem>.
function(clrt_embed_cl out_var)
  cmake_parse_arguments(arg "" "PRELUDE" "" ${ARGN})
  set(sources)
  foreach(cl IN LISTS arg_UNPARSED_ARGUMENTS)
    get_filename_component(stem "${cl}" NAME_WE)
    clrt_embed_cl_bundle(out ${stem} PRELUDE ${arg_PRELUDE} ${cl})
    list(APPEND sources "${out}")
  endforeach()
  set(${out_var} ${sources} PARENT_SCOPE)
endfunction()

# clrt_embed_cl_bundle(<out-var> <stem> PRELUDE <common.cl> <file.cl>... [VARIANTS
# <v>...]): one C source, clrt_cl_<stem>.c, defining clrt__cl_<stem>: the
# prelude, then each file. Kernels built with the same options from one text
# share one program (one front-end pass of the driver's compiler instead of one
# per file). With VARIANTS ("NAME=VALUE,NAME=VALUE" each) the files come once per
# variant, each copy between its #defines and their #undefs: the files name
# their kernels after one of those macros (one program holding every variant).
function(clrt_embed_cl_bundle out_var stem)
  cmake_parse_arguments(arg "" "PRELUDE" "VARIANTS" ${ARGN})
  set(variant_arg)
  if(arg_VARIANTS)
    string(REPLACE ";" "|" variants "${arg_VARIANTS}")
    set(variant_arg "-DVARIANTS=${variants}")
  endif()
  get_filename_component(prelude "${arg_PRELUDE}" ABSOLUTE)
  set(abs_files)
  set(names)
  foreach(cl IN LISTS arg_UNPARSED_ARGUMENTS)
    get_filename_component(abs "${cl}" ABSOLUTE)
    get_filename_component(name "${cl}" NAME)
    list(APPEND abs_files "${abs}")
    list(APPEND names "cl/${name}")
  endforeach()
  list(JOIN names " " names)
  string(REPLACE ";" "|" joined "${abs_files}")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded/clrt_cl_${stem}.c")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DPRELUDE=${prelude} -DINPUT=${joined} -DOUTPUT=${out} -DSYMBOL=clrt__cl_${stem}
            ${variant_arg} -P "${CLRT_EMBED_SCRIPT}"
    DEPENDS ${abs_files} "${prelude}" "${CLRT_EMBED_SCRIPT}"
    COMMENT "Embedding ${names}"
    VERBATIM)
  file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/embedded")
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
