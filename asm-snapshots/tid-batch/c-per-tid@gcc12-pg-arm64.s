# hotloops asm snapshot of `tid-batch/c-per-tid` under `gcc12-pg-arm64` (csrc/nbtree_bitmap.c)
# target: aarch64-linux-gnu
# compiler: aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg_arm64
# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __gcc12_pg_arm64 dropped

hotloops_tid_batch_c_per_tid:
	stp x29, x30, [sp, -64]!
	mov x29, sp
	stp x19, x20, [sp, 16]
	mov x20, 0
	stp x21, x22, [sp, 32]
	mov x21, x1
	mov x22, x2
	stp x23, x24, [sp, 48]
	mov w24, 10
	mov x23, 136
	ldr x19, [x0, 56]
	b .L0
.L1:
	mov x0, x21
	bl hl_tb_bt_start_prim_scan
	tst w0, 255
	beq .L2
.L0:
	mov x0, x21
	bl hl_tb_bt_first
	cbz x0, .L1
	mov x1, x0
	add x20, x20, 1
	mov x0, x22
	mov w3, 0
	mov w2, 1
	bl hl_tbm_add_tuples
	b .L3
.L4:
	ldr w1, [x19, 132]
.L5:
	smaddl x1, w1, w24, x23
	add x20, x20, 1
	mov x0, x22
	mov w3, 0
	add x1, x19, x1
	mov w2, 1
	bl hl_tbm_add_tuples
.L3:
	ldp w3, w1, [x19, 128]
	mov x0, x21
	add w1, w1, 1
	str w1, [x19, 132]
	cmp w1, w3
	ble .L5
	bl hl_tb_bt_next
	tst w0, 255
	bne .L4
	mov x0, x21
	bl hl_tb_bt_start_prim_scan
	tst w0, 255
	bne .L0
.L2:
	ldp x21, x22, [sp, 32]
	mov x0, x20
	ldp x19, x20, [sp, 16]
	ldp x23, x24, [sp, 48]
	ldp x29, x30, [sp], 64
	ret
