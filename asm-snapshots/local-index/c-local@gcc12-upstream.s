# hotloops asm snapshot of `local-index/c-local` under `gcc12-upstream` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_upstream
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_upstream dropped

hotloops_local_index_c_local:
	push r15
	push r14
	xor r14d, r14d
	push r13
	mov r13, rsi
	push r12
	push rbp
	xor ebp, ebp
	push rbx
	sub rsp, 24
	mov rax, qword ptr [rdi + 8]
	mov r15, qword ptr [rdi + 56]
	mov qword ptr [rsp], rdx
	mov qword ptr [rsp + 8], rax
.L0:
	mov ebx, dword ptr [r15 + 132]
	mov r12d, dword ptr [r15 + 128]
	cmp ebx, r12d
	jle .L1
	jmp .L2
.L3:
	movsx rax, ebp
	add ebp, 1
	lea rax, [rax + 2*rax]
	lea rdx, [r13 + 2*rax]
.L4:
	movsx rax, ebx
	add ebx, 1
	add r14, 1
	lea rax, [rax + 4*rax]
	lea rax, [r15 + 2*rax + 128]
	mov ecx, dword ptr [rax + 8]
	mov dword ptr [rdx], ecx
	movzx eax, word ptr [rax + 12]
	mov word ptr [rdx + 4], ax
	cmp r12d, ebx
	jl .L2
.L1:
	cmp ebp, 1358
	jne .L3
	mov rdi, qword ptr [rsp]
	mov edx, 1358
	xor ecx, ecx
	mov rsi, r13
	mov ebp, 1
	call hl_tid_sink_add_tuples@PLT
	mov rdx, r13
	jmp .L4
.L2:
	mov dword ptr [r15 + 132], ebx
	mov rsi, qword ptr [rsp + 8]
	mov rdi, r15
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test ebp, ebp
	jle .L5
	mov rdi, qword ptr [rsp]
	xor ecx, ecx
	mov edx, ebp
	mov rsi, r13
	call hl_tid_sink_add_tuples@PLT
.L5:
	add rsp, 24
	mov rax, r14
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	ret
