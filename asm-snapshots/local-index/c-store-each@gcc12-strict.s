# hotloops asm snapshot of `local-index/c-store-each` under `gcc12-strict` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_local_index_c_store_each:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	xor r14d, r14d
	push r13
	push r12
	mov r12, rsi
	push rbx
	xor ebx, ebx
	sub rsp, 24
	mov r15, qword ptr [rdi + 56]
	mov r13, qword ptr [rdi + 8]
	mov qword ptr [rbp - 56], rdx
.L0:
	mov eax, dword ptr [r15 + 132]
	cmp eax, dword ptr [r15 + 128]
	jle .L1
	mov rsi, r13
	mov rdi, r15
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r14d, r14d
	jle .L2
	mov rdi, qword ptr [rbp - 56]
	xor ecx, ecx
	mov edx, r14d
	mov rsi, r12
	call hl_tid_sink_add_tuples@PLT
.L2:
	add rsp, 24
	mov rax, rbx
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L1:
	cmp r14d, 1358
	je .L3
	movsx rcx, r14d
	add r14d, 1
	lea rcx, [rcx + 2*rcx]
	lea rsi, [r12 + 2*rcx]
.L4:
	movsx rcx, eax
	add eax, 1
	add rbx, 1
	lea rcx, [rcx + 4*rcx]
	lea rcx, [r15 + 2*rcx + 128]
	mov edi, dword ptr [rcx + 8]
	mov dword ptr [rsi], edi
	movzx ecx, word ptr [rcx + 12]
	mov word ptr [rsi + 4], cx
	mov dword ptr [r15 + 132], eax
	jmp .L0
.L3:
	mov rdi, qword ptr [rbp - 56]
	mov rsi, r12
	xor ecx, ecx
	mov edx, 1358
	mov r14d, 1
	call hl_tid_sink_add_tuples@PLT
	mov eax, dword ptr [r15 + 132]
	mov rsi, r12
	jmp .L4
