# hotloops asm snapshot of `local-index/c-span` under `gcc12-pg-arm64` (csrc/nbtree_bitmap.c)
# target: aarch64-linux-gnu
# compiler: aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg_arm64
# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __gcc12_pg_arm64 dropped

hotloops_local_index_c_span:
	stp x29, x30, [sp, -80]!
	mov x29, sp
	stp x19, x20, [sp, 16]
	mov w20, 0
	stp x21, x22, [sp, 32]
	mov x22, x2
	stp x23, x24, [sp, 48]
	mov x23, x1
	mov x24, 0
	str x25, [sp, 64]
	mov w25, 6
	ldr x21, [x0, 8]
	ldr x19, [x0, 56]
.L0:
	ldp w2, w0, [x19, 128]
	add w1, w2, 1
	sub w1, w1, w0
	cmp w1, 0
	ble .L1
	add w1, w20, w1
	cmp w1, 1358
	bgt .L2
.L1:
	cmp w0, w2
	bgt .L3
.L4:
	sbfiz x1, x0, 2, 32
	mov w3, w20
	add x0, x1, w0, sxtw
	add x24, x24, 1
	add w20, w20, 1
	smull x3, w3, w25
	add x0, x19, x0, lsl 1
	add x1, x23, x3
	ldr w2, [x0, 136]
	str w2, [x23, x3]
	ldrh w0, [x0, 140]
	strh w0, [x1, 4]
	ldp w1, w0, [x19, 128]
	add w0, w0, 1
	str w0, [x19, 132]
	cmp w0, w1
	ble .L4
.L3:
	mov x1, x21
	mov x0, x19
	bl hl_bt_steppage
	tst w0, 255
	bne .L0
	cmp w20, 0
	ble .L5
	mov w2, w20
	mov x1, x23
	mov x0, x22
	mov w3, 0
	bl hl_tid_sink_add_tuples
.L5:
	ldp x19, x20, [sp, 16]
	mov x0, x24
	ldp x21, x22, [sp, 32]
	ldp x23, x24, [sp, 48]
	ldr x25, [sp, 64]
	ldp x29, x30, [sp], 80
	ret
.L2:
	mov w2, w20
	mov x0, x22
	mov x1, x23
	mov w3, 0
	bl hl_tid_sink_add_tuples
	mov w20, 0
	ldp w2, w0, [x19, 128]
	b .L1
