# Writes README.md's C example (the ```c block under "## Use it from C") to
# OUT, word for word, so that the test builds exactly what the README shows.
#   cmake -DREADME=<README.md> -DOUT=<file.c> -P extract_readme_c.cmake
file(READ "${README}" text)
string(FIND "${text}" "\n## Use it from C\n" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${README}: no \"## Use it from C\" section")
endif()
string(SUBSTRING "${text}" ${at} -1 text)
string(FIND "${text}" "\n```c\n" start)
string(SUBSTRING "${text}" 1 -1 after_heading)
string(FIND "${after_heading}" "\n## " next_section)  # one short of its place in text: fine for <
if(start EQUAL -1 OR (NOT next_section EQUAL -1 AND start GREATER next_section))
  message(FATAL_ERROR "${README}: no ```c block in \"## Use it from C\"")
endif()
math(EXPR start "${start} + 6")
string(SUBSTRING "${text}" ${start} -1 text)
string(FIND "${text}" "\n```" end)
if(end EQUAL -1)
  message(FATAL_ERROR "${README}: the ```c block in \"## Use it from C\" is not closed")
endif()
math(EXPR end "${end} + 1")
string(SUBSTRING "${text}" 0 ${end} code)
file(WRITE "${OUT}" "${code}")
