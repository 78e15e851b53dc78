// The shipped weights file's bytes (builtin_weights.h). The file's path
// comes from CMake (WALLGO_NET_WEIGHTS_FILE); .incbin copies it verbatim.
// WebAssembly objects (tools/web) name a data section of their own and give
// the symbol its size; ELF needs neither.
#if defined(__wasm__)
    .section .rodata.wallgo_builtin_weights,"",@
#else
    .section .rodata
    .balign 16
#endif
    .globl wallgo_builtin_weights_begin
    .globl wallgo_builtin_weights_end
wallgo_builtin_weights_begin:
    .incbin WALLGO_NET_WEIGHTS_FILE
wallgo_builtin_weights_end:
#if defined(__wasm__)
    .size wallgo_builtin_weights_begin, wallgo_builtin_weights_end - wallgo_builtin_weights_begin
    .size wallgo_builtin_weights_end, 0
#else
    .section .note.GNU-stack,"",@progbits
#endif
