/* rockcreek: bytes that only take room (RCK_PAD_BYTES of them in section
 * RCK_PAD_SECTION with flags RCK_PAD_FLAGS), linked into a checked program
 * to show that neither the simulator's code size (rck_base_text), nor
 * code the checks do not shadow (.text), nor the checks' own tables
 * (.rodata.rck_blk) move the program's data: sim.p54c.data_pad_*
 * (bench/CMakeLists.txt; docs/P54C.md, "Data at the unchecked
 * addresses"). Never called. */
#if !defined(RCK_PAD_BYTES) || !defined(RCK_PAD_SECTION) || \
    !defined(RCK_PAD_FLAGS)
#error "define RCK_PAD_BYTES, RCK_PAD_SECTION and RCK_PAD_FLAGS"
#endif
#define RCK_PAD_STR(x) #x
#define RCK_PAD_XSTR(x) RCK_PAD_STR(x)
__asm__("\t.pushsection\t" RCK_PAD_XSTR(RCK_PAD_SECTION) ",\"" RCK_PAD_XSTR(RCK_PAD_FLAGS) "\",@progbits\n"
        "\t.skip\t" RCK_PAD_XSTR(RCK_PAD_BYTES) ",0\n"
        "\t.popsection\n");
