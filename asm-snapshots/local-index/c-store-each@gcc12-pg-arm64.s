# hotloops asm snapshot of `local-index/c-store-each` under `gcc12-pg-arm64` (csrc/nbtree_bitmap.c)
# target: aarch64-linux-gnu
# compiler: aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg_arm64
# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __gcc12_pg_arm64 dropped

hotloops_local_index_c_store_each:
	stp x29, x30, [sp, -80]!
	mov x29, sp
	stp x19, x20, [sp, 16]
	mov x20, 0
	stp x21, x22, [sp, 32]
	mov x22, x1
	stp x23, x24, [sp, 48]
	mov x24, x2
	mov w23, 6
	str x25, [sp, 64]
	mov w25, 0
	ldr x19, [x0, 56]
	ldr x21, [x0, 8]
	ldr w3, [x19, 132]
.L0:
	ldr w2, [x19, 128]
	mov x1, x21
	mov x0, x19
	cmp w3, w2
	ble .L1
.L2:
	bl hl_bt_steppage
	tst w0, 255
	beq .L3
	ldr w3, [x19, 132]
	mov x1, x21
	ldr w2, [x19, 128]
	mov x0, x19
	cmp w3, w2
	bgt .L2
.L1:
	cmp w25, 1358
	beq .L4
	smaddl x0, w25, w23, x22
	add w25, w25, 1
.L5:
	sbfiz x1, x3, 2, 32
	add x20, x20, 1
	add x3, x1, w3, sxtw
	add x3, x19, x3, lsl 1
	ldr w1, [x3, 136]
	str w1, [x0]
	ldrh w1, [x3, 140]
	strh w1, [x0, 4]
	ldr w3, [x19, 132]
	add w3, w3, 1
	str w3, [x19, 132]
	b .L0
.L4:
	mov w2, w25
	mov x0, x24
	mov w3, 0
	mov x1, x22
	bl hl_tid_sink_add_tuples
	mov w25, 1
	ldr w3, [x19, 132]
	mov x0, x22
	b .L5
.L3:
	cmp w25, 0
	ble .L6
	mov w2, w25
	mov x1, x22
	mov x0, x24
	mov w3, 0
	bl hl_tid_sink_add_tuples
.L6:
	ldp x21, x22, [sp, 32]
	mov x0, x20
	ldp x19, x20, [sp, 16]
	ldp x23, x24, [sp, 48]
	ldr x25, [sp, 64]
	ldp x29, x30, [sp], 80
	ret
