# hotloops asm snapshot of `local-index/c-local` under `clang19-pg` (csrc/nbtree_bitmap.c)
# compiler: Debian clang version 19.1.7 (3~deb12u1)
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -gdwarf-4 -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=clang19_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __clang19_pg dropped

hotloops_local_index_c_local:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 40
	mov qword ptr [rbp - 48], rdx
	mov rax, qword ptr [rdi + 8]
	mov qword ptr [rbp - 72], rax
	mov r15, qword ptr [rdi + 56]
	lea r14, [r15 + 136]
	xor ebx, ebx
	xor r12d, r12d
	mov qword ptr [rbp - 56], rsi
	mov qword ptr [rbp - 64], r15
	jmp .L0
.L1:
	mov rax, qword ptr [rbp - 64]
	mov dword ptr [rax + 132], r15d
	mov r15, rax
	mov rdi, rax
	mov rsi, qword ptr [rbp - 72]
	call hl_bt_steppage@PLT
	mov rsi, qword ptr [rbp - 56]
	test al, al
	je .L2
.L0:
	mov r8d, dword ptr [r15 + 128]
	mov r15d, dword ptr [r15 + 132]
	jmp .L3
.L4:
	movsxd rax, r12d
	inc r12d
	lea rax, [rax + 2*rax]
	movsxd r15, r15d
	lea rcx, [r15 + 4*r15]
	movzx edx, word ptr [r14 + 2*rcx + 4]
	mov word ptr [rsi + 2*rax + 4], dx
	mov ecx, dword ptr [r14 + 2*rcx]
	mov dword ptr [rsi + 2*rax], ecx
	inc rbx
	inc r15d
.L3:
	cmp r15d, r8d
	jg .L1
	cmp r12d, 1358
	jne .L4
	xor r12d, r12d
	mov rdi, qword ptr [rbp - 48]
	mov r13d, r8d
	mov edx, 1358
	xor ecx, ecx
	call hl_tid_sink_add_tuples@PLT
	mov rsi, qword ptr [rbp - 56]
	mov r8d, r13d
	jmp .L4
.L2:
	test r12d, r12d
	jle .L5
	mov rdi, qword ptr [rbp - 48]
	mov edx, r12d
	xor ecx, ecx
	call hl_tid_sink_add_tuples@PLT
.L5:
	mov rax, rbx
	add rsp, 40
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
