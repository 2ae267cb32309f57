# hotloops asm snapshot of `tid-batch/c-per-tid` under `clang19-pg` (csrc/nbtree_bitmap.c)
# compiler: Debian clang version 19.1.7 (3~deb12u1)
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -gdwarf-4 -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=clang19_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __clang19_pg dropped

hotloops_tid_batch_c_per_tid:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	push rbx
	push rax
	mov r14, qword ptr [rdi + 56]
	movsxd rax, dword ptr [r14 + 132]
	cmp eax, dword ptr [r14 + 128]
	jle .L0
	xor r12d, r12d
.L1:
	mov rax, r12
	add rsp, 8
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L0:
	mov rbx, rsi
	mov r15, qword ptr [rdi + 8]
	lea r13, [r14 + 136]
	lea rax, [rax + 4*rax]
	lea rsi, [r14 + 2*rax]
	add rsi, 136
	mov rdi, rbx
	mov edx, 1
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
	mov r12d, 1
	jmp .L2
.L3:
	cdqe
	lea rax, [rax + 4*rax]
	lea rsi, [2*rax]
	add rsi, r13
	mov rdi, rbx
	mov edx, 1
	xor ecx, ecx
	call hl_tbm_add_tuples@PLT
	inc r12
.L2:
	mov eax, dword ptr [r14 + 132]
	inc eax
	mov dword ptr [r14 + 132], eax
	cmp eax, dword ptr [r14 + 128]
	jle .L3
	mov rdi, r14
	mov rsi, r15
	call hl_bt_steppage@PLT
	test al, al
	je .L1
	mov eax, dword ptr [r14 + 132]
	jmp .L3
