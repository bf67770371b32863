#!/bin/sh
# The compiler launcher of the simulator's own layers (util, hal,
# backends; CMakeLists.txt, RCK_BASE_LAYERS): compile, then move the
# object's code into section rck_base_text, so that the P54C model's QEMU
# plugin can tell the simulator's code from the program's in any module
# that links these objects (docs/P54C.md, "What QEMU counts").
#   base_text.sh OBJCOPY COMPILER ARGS...
objcopy=$1
shift
"$@" || exit $?
out=
prev=
for a in "$@"; do
    [ "$prev" = "-o" ] && out=$a
    prev=$a
done
case "$out" in
*.o) ;;
*) exit 0 ;;
esac
exec "$objcopy" --rename-section .text=rck_base_text \
    --rename-section .text.startup=rck_base_text \
    --rename-section .text.unlikely=rck_base_text \
    --rename-section .text.hot=rck_base_text \
    --rename-section .text.exit=rck_base_text "$out"
