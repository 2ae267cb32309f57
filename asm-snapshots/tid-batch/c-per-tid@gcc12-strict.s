# hotloops asm snapshot of `tid-batch/c-per-tid` under `gcc12-strict` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_tid_batch_c_per_tid:
	push rbp
	mov rbp, rsp
	push r14
	push r13
	push r12
	push rbx
	mov r14, qword ptr [rdi + 56]
	xor ebx, ebx
	movsx rax, dword ptr [r14 + 132]
	cmp eax, dword ptr [r14 + 128]
	jle .L0
	mov rax, rbx
	pop rbx
	pop r12
	pop r13
	pop r14
	pop rbp
	ret
.L0:
	mov r12, rsi
	lea rax, [rax + 4*rax]
	mov r13, qword ptr [rdi + 8]
	xor ecx, ecx
	lea rsi, [r14 + 2*rax + 136]
	mov edx, 1
	mov rdi, r12
	mov ebx, 1
	call hl_tbm_add_tuples@PLT
	jmp .L1
.L2:
	mov eax, dword ptr [r14 + 132]
.L3:
	cdqe
	xor ecx, ecx
	mov edx, 1
	mov rdi, r12
	lea rax, [rax + 4*rax]
	add rbx, 1
	lea rsi, [r14 + 2*rax + 136]
	call hl_tbm_add_tuples@PLT
.L1:
	mov eax, dword ptr [r14 + 132]
	add eax, 1
	mov dword ptr [r14 + 132], eax
	cmp eax, dword ptr [r14 + 128]
	jle .L3
	mov rsi, r13
	mov rdi, r14
	call hl_bt_steppage@PLT
	test al, al
	jne .L2
	mov rax, rbx
	pop rbx
	pop r12
	pop r13
	pop r14
	pop rbp
	ret
