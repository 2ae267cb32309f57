# hotloops asm snapshot of `local-index/c-local` under `gcc12-pg-arm64` (csrc/nbtree_bitmap.c)
# target: aarch64-linux-gnu
# compiler: aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg_arm64
# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __gcc12_pg_arm64 dropped

hotloops_local_index_c_local:
	stp x29, x30, [sp, -96]!
	mov x29, sp
	stp x19, x20, [sp, 16]
	mov w20, 0
	stp x21, x22, [sp, 32]
	mov x22, x2
	mov x21, 0
	stp x23, x24, [sp, 48]
	stp x25, x26, [sp, 64]
	mov x25, x1
	str x27, [sp, 80]
	mov w27, 6
	ldr x23, [x0, 8]
	ldr x24, [x0, 56]
.L0:
	ldp w26, w19, [x24, 128]
	cmp w19, w26
	ble .L1
	b .L2
.L3:
	smaddl x3, w20, w27, x25
	add w20, w20, 1
.L4:
	sbfiz x0, x19, 2, 32
	add x21, x21, 1
	add x0, x0, w19, sxtw
	add w19, w19, 1
	add x0, x24, x0, lsl 1
	ldr w2, [x0, 136]
	str w2, [x3]
	ldrh w0, [x0, 140]
	strh w0, [x3, 4]
	cmp w26, w19
	blt .L2
.L1:
	cmp w20, 1358
	bne .L3
	mov w2, w20
	mov w3, 0
	mov x1, x25
	mov x0, x22
	bl hl_tid_sink_add_tuples
	mov w20, 1
	mov x3, x25
	b .L4
.L2:
	str w19, [x24, 132]
	mov x1, x23
	mov x0, x24
	bl hl_bt_steppage
	tst w0, 255
	bne .L0
	cmp w20, 0
	ble .L5
	mov w2, w20
	mov x1, x25
	mov x0, x22
	mov w3, 0
	bl hl_tid_sink_add_tuples
.L5:
	ldp x19, x20, [sp, 16]
	mov x0, x21
	ldp x21, x22, [sp, 32]
	ldp x23, x24, [sp, 48]
	ldp x25, x26, [sp, 64]
	ldr x27, [sp, 80]
	ldp x29, x30, [sp], 96
	ret
