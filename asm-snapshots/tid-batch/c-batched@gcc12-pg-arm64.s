# hotloops asm snapshot of `tid-batch/c-batched` under `gcc12-pg-arm64` (csrc/nbtree_bitmap.c)
# target: aarch64-linux-gnu
# compiler: aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg_arm64
# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __gcc12_pg_arm64 dropped

hotloops_tid_batch_c_batched:
	mov x12, 8240
	sub sp, sp, x12
	adrp x3, :got:__stack_chk_guard
	ldr x3, [x3, :got_lo12:__stack_chk_guard]
	stp x29, x30, [sp]
	mov x29, sp
	stp x19, x20, [sp, 16]
	mov w20, 0
	stp x21, x22, [sp, 32]
	mov x22, x1
	mov x21, x2
	stp x23, x24, [sp, 48]
	add x23, sp, 80
	mov x24, 0
	stp x25, x26, [sp, 64]
	ldr x25, [x0, 56]
	ldr x0, [x3]
	str x0, [sp, 8232]
	mov x0, 0
	b .L0
.L1:
	mov x0, x22
	bl hl_tb_bt_start_prim_scan
	tst w0, 255
	beq .L2
.L0:
	mov x0, x22
	bl hl_tb_bt_first
	cbz x0, .L1
.L3:
	ldp w26, w19, [x25, 128]
	cmp w19, w26
	ble .L4
	b .L5
.L6:
	mov w0, w20
	add w20, w20, 1
.L7:
	sbfiz x2, x19, 2, 32
	sbfiz x1, x0, 1, 32
	add x2, x2, w19, sxtw
	add x0, x1, w0, sxtw
	add w19, w19, 1
	add x24, x24, 1
	add x2, x25, x2, lsl 1
	lsl x0, x0, 1
	add x1, x23, x0
	ldr w3, [x2, 136]
	str w3, [x23, x0]
	ldrh w0, [x2, 140]
	strh w0, [x1, 4]
	cmp w26, w19
	blt .L5
.L4:
	cmp w20, 1358
	bne .L6
	mov w2, w20
	mov x0, x21
	mov x1, x23
	mov w3, 0
	bl hl_tbm_add_tuples
	mov w20, 1
	mov w0, 0
	b .L7
.L5:
	str w19, [x25, 132]
	mov x0, x22
	bl hl_tb_bt_steppage
	tst w0, 255
	bne .L3
	mov x0, x22
	bl hl_tb_bt_start_prim_scan
	tst w0, 255
	bne .L0
.L2:
	cmp w20, 0
	ble .L8
	mov w2, w20
	mov x0, x21
	add x1, sp, 80
	mov w3, 0
	bl hl_tbm_add_tuples
.L8:
	adrp x0, :got:__stack_chk_guard
	ldr x0, [x0, :got_lo12:__stack_chk_guard]
	ldr x2, [sp, 8232]
	ldr x1, [x0]
	subs x2, x2, x1
	mov x1, 0
	bne .L9
	ldp x29, x30, [sp]
	mov x0, x24
	ldp x19, x20, [sp, 16]
	mov x12, 8240
	ldp x21, x22, [sp, 32]
	ldp x23, x24, [sp, 48]
	ldp x25, x26, [sp, 64]
	add sp, sp, x12
	ret
.L9:
	bl __stack_chk_fail
