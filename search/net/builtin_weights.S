// The shipped weights file's bytes (builtin_weights.h). The file's path
// comes from CMake (WALLGO_NET_WEIGHTS_FILE); .incbin copies it verbatim.
    .section .rodata
    .balign 16
    .globl wallgo_builtin_weights_begin
    .globl wallgo_builtin_weights_end
wallgo_builtin_weights_begin:
    .incbin WALLGO_NET_WEIGHTS_FILE
wallgo_builtin_weights_end:
    .section .note.GNU-stack,"",@progbits
