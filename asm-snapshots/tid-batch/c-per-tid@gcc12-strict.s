# hotloops asm snapshot of `tid-batch/c-per-tid` under `gcc12-strict` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_tid_batch_c_per_tid:
	push rbp
	mov rbp, rsp
	push r14
	push r13
	mov r13, rdx
	push r12
	mov r12, rsi
	push rbx
	xor ebx, ebx
	mov r14, qword ptr [rdi + 56]
	jmp .L0
.L1:
	mov rdi, r12
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	je .L2
.L0:
	mov rdi, r12
	call hl_tb_bt_first@PLT
	test rax, rax
	je .L1
	xor ecx, ecx
	mov edx, 1
	mov rsi, rax
	mov rdi, r13
	call hl_tbm_add_tuples@PLT
	add rbx, 1
	jmp .L3
.L4:
	mov eax, dword ptr [r14 + 132]
.L5:
	cdqe
	xor ecx, ecx
	mov edx, 1
	mov rdi, r13
	lea rax, [rax + 4*rax]
	add rbx, 1
	lea rsi, [r14 + 2*rax + 136]
	call hl_tbm_add_tuples@PLT
.L3:
	mov eax, dword ptr [r14 + 132]
	add eax, 1
	mov dword ptr [r14 + 132], eax
	cmp eax, dword ptr [r14 + 128]
	jle .L5
	mov rdi, r12
	call hl_tb_bt_next@PLT
	test al, al
	jne .L4
	mov rdi, r12
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	jne .L0
.L2:
	mov rax, rbx
	pop rbx
	pop r12
	pop r13
	pop r14
	pop rbp
	ret
