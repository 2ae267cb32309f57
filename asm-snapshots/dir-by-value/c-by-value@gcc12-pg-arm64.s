# hotloops asm snapshot of `dir-by-value/c-by-value` under `gcc12-pg-arm64` (csrc/nbtsearch_checkkeys.c)
# target: aarch64-linux-gnu
# compiler: aarch64-linux-gnu-gcc-12 (Debian 12.2.0-14) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg_arm64
# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __gcc12_pg_arm64 dropped

hotloops_dir_by_value_c_by_value:
	stp x29, x30, [sp, -176]!
	and w3, w3, 255
	and w2, w2, 65535
	mov x29, sp
	stp x25, x26, [sp, 64]
	mov x26, x1
	eor w6, w3, 1
	stp x19, x20, [sp, 16]
	stp x21, x22, [sp, 32]
	mov x21, x0
	stp x23, x24, [sp, 48]
	stp x27, x28, [sp, 80]
	ldrh w0, [x26, 16]
	adrp x1, :got:__stack_chk_guard
	ldr x1, [x1, :got_lo12:__stack_chk_guard]
	add x0, x26, x0
	ldrh w20, [x26, 12]
	ldr x7, [x21, 8]
	sub w20, w20, 24
	ldr w0, [x0, 4]
	ldr x5, [x1]
	str x5, [sp, 168]
	mov x5, 0
	ldr x24, [x21, 56]
	cmp w0, 0
	cset w1, ne
	ubfx x20, x20, 2, 16
	add w27, w1, 1
	str w0, [sp, 108]
	cmp w20, w27
	mov w0, 1
	str w0, [sp, 120]
	add x22, x24, 136
	strh w27, [sp, 124]
	strh w20, [sp, 126]
	stp xzr, x26, [sp, 128]
	ldrb w8, [x7, 48]
	strb w3, [sp, 144]
	cset w7, hi
	strb wzr, [sp, 145]
	str wzr, [sp, 148]
	strh w2, [sp, 152]
	strh wzr, [sp, 154]
	strb w0, [sp, 156]
	str w0, [x24, 112]
	strh wzr, [sp, 158]
	str wzr, [sp, 160]
	tst w7, w6
	bne .L0
.L1:
	cmp w27, w2
	csel w27, w27, w2, hi
	and w27, w27, 65535
	cmp w20, w27
	bcc .L2
	add x23, sp, 120
	mov w19, 0
	b .L3
.L4:
	add w0, w27, 1
	and w27, w0, 65535
	cmp w20, w0, uxth
	bcc .L5
.L3:
	sub w2, w27, 1
	mov x1, x23
	mov x0, x21
	add x2, x26, w2, sxtw 2
	ldr w28, [x2, 24]
	strh w27, [sp, 152]
	and x28, x28, 32767
	add x25, x26, x28
	mov x2, x25
	bl hl_dir_by_value_c_by_value_checkkeys
	tst w0, 255
	beq .L6
	mov w0, 10
	ldr w3, [x26, x28]
	smull x1, w19, w0
	add w19, w19, 1
	add x0, x22, x1
	str w3, [x22, x1]
	ldrh w1, [x25, 4]
	strh w1, [x0, 4]
	strh w27, [x0, 6]
	strh wzr, [x0, 8]
.L6:
	ldrb w0, [sp, 156]
	cbnz w0, .L4
	cmp w19, 0
	sub w19, w19, 1
	cset w20, gt
.L7:
	adrp x1, :got:__stack_chk_guard
	ldr x1, [x1, :got_lo12:__stack_chk_guard]
	strb w0, [x24, 121]
	stp wzr, w19, [x24, 124]
	str wzr, [x24, 132]
	mov x0, x1
	ldr x2, [sp, 168]
	ldr x1, [x0]
	subs x2, x2, x1
	mov x1, 0
	bne .L8
	ldp x21, x22, [sp, 32]
	mov w0, w20
	ldp x19, x20, [sp, 16]
	ldp x23, x24, [sp, 48]
	ldp x25, x26, [sp, 64]
	ldp x27, x28, [sp, 80]
	ldp x29, x30, [sp], 176
	ret
.L5:
	cmp w19, 0
	sub w19, w19, 1
	cset w20, gt
.L9:
	ldr w1, [sp, 108]
	mov w0, 0
	cbz w1, .L7
	ldr x2, [x26, 24]
	mov x0, x21
	add x1, sp, 120
	str wzr, [sp, 148]
	and x2, x2, 32767
	add x2, x26, x2
	bl hl_dir_by_value_c_by_value_checkkeys
	ldrb w0, [sp, 156]
	b .L7
.L0:
	sub w0, w20, 1
	add x1, x26, w1, sxtw 2
	ldr w7, [x24, 4]
	add x0, x26, w0, sxtw 2
	ldr w1, [x1, 24]
	subs w4, w7, w4
	csel w4, w4, wzr, pl
	ldr w0, [x0, 24]
	and x1, x1, 32767
	add x1, x26, x1
	and x0, x0, 32767
	add x0, x26, x0
	cbz w8, .L10
	ldr x9, [x0, 8]
	ldr x8, [x1, 8]
.L11:
	cmp w7, 0
	ble .L12
	ldr x0, [x24, 8]
	mov w1, 0
	add x0, x0, 6
	b .L13
.L14:
	cmp x8, x3
	cset w6, ge
	cmp x9, x3
	cset w3, ge
	cmp w6, 0
	ccmp w3, 0, 4, ne
	beq .L15
.L16:
	add w1, w1, 1
	add x0, x0, 16
	cmp w7, w1
	beq .L17
.L13:
	ldrh w6, [x0]
	ldr x3, [x0, 2]
	cmp w6, 2
	bne .L14
	cmp x8, x3
	cset w6, le
	cmp x9, x3
	cset w3, le
	cmp w6, 0
	ccmp w3, 0, 4, ne
	bne .L16
.L15:
	cmp w4, w1
	csel w4, w4, w1, le
	str w4, [sp, 148]
	b .L1
.L17:
	cmp w4, w7
	csel w4, w4, w7, le
	str w4, [sp, 148]
	b .L1
.L10:
	ldrsw x9, [x0, 8]
	ldrsw x8, [x1, 8]
	b .L11
.L2:
	mov w20, 0
	mov w19, -1
	b .L9
.L12:
	mov w4, 0
	str w4, [sp, 148]
	b .L1
.L8:
	bl __stack_chk_fail

hl_dir_by_value_c_by_value_checkkeys:
	mov x5, x1
	stp x29, x30, [sp, -32]!
	add x3, x1, 36
	adrp x6, :got:__stack_chk_guard
	ldr x6, [x6, :got_lo12:__stack_chk_guard]
	mov x29, sp
	ldr w7, [x5, 28]
	add x4, sp, 20
	ldr w1, [x1]
	mov x5, x6
	ldr x6, [x5]
	str x6, [sp, 24]
	mov x6, 0
	str w7, [sp, 20]
	bl hl_bt_check_compare
	adrp x1, :got:__stack_chk_guard
	ldr x1, [x1, :got_lo12:__stack_chk_guard]
	ldr x3, [sp, 24]
	ldr x2, [x1]
	subs x3, x3, x2
	mov x2, 0
	bne .L0
	ldp x29, x30, [sp], 32
	ret
.L0:
	bl __stack_chk_fail

hl_bt_check_compare:
	ldr x7, [x0, 56]
	ldr w5, [x4]
	ldr w6, [x7, 4]
	cmp w6, w5
	bgt .L0
	b .L1
.L2:
	ldrh w10, [x6, 6]
	add w5, w5, 1
	ldr x11, [x2, 8]
	ldr x6, [x6, 8]
	cmp w10, 2
	beq .L3
.L4:
	cmp x11, x6
	blt .L5
.L6:
	str w5, [x4]
	ldr w6, [x7, 4]
	cmp w5, w6
	bge .L1
.L0:
	ldr x6, [x0, 8]
	sbfiz x8, x5, 4, 32
	ldr x9, [x7, 8]
	ldrb w10, [x6, 48]
	add x6, x9, x8
	cbnz w10, .L2
	ldrh w10, [x6, 6]
	add w5, w5, 1
	ldr x6, [x6, 8]
	ldrsw x11, [x2, 8]
	cmp w10, 2
	bne .L4
.L3:
	cmp x11, x6
	ble .L6
.L5:
	ldr w0, [x9, x8]
	tst x0, 65536
	ccmp w1, 1, 0, ne
	beq .L7
	tst x0, 131072
	ccmn w1, 1, 0, ne
	beq .L7
	mov w0, 0
.L8:
	ret
.L1:
	mov w0, 1
	ret
.L7:
	mov w0, 0
	strb wzr, [x3]
	b .L8
