# Compiler warnings and the sanitizer configuration, applied to every joco target through
# joco_options (an interface library).
add_library(joco_options INTERFACE)
target_compile_options(joco_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wno-missing-field-initializers)
# GCC 12 reports -Wrestrict false positives inside libstdc++'s string concatenation (GCC bug 105651).
target_compile_options(joco_options INTERFACE $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
if(JOCO_WERROR)
  target_compile_options(joco_options INTERFACE -Werror)
endif()
if(JOCO_SANITIZE)
  target_compile_options(joco_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                -fno-sanitize-recover=undefined)
  target_link_options(joco_options INTERFACE -fsanitize=address,undefined)
endif()
