# hotloops asm snapshot of `local-index/c-span` under `gcc12-strict` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_local_index_c_span:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	xor r14d, r14d
	push r13
	xor r13d, r13d
	push r12
	mov r12, rsi
	push rbx
	sub rsp, 24
	mov r15, qword ptr [rdi + 56]
	mov rbx, qword ptr [rdi + 8]
	mov qword ptr [rbp - 56], rdx
.L0:
	mov esi, dword ptr [r15 + 128]
	mov edx, dword ptr [r15 + 132]
	lea eax, [rsi + 1]
	sub eax, edx
	test eax, eax
	jle .L1
	add eax, r13d
	cmp eax, 1358
	jg .L2
.L1:
	cmp edx, esi
	jg .L3
.L4:
	movsx rcx, edx
	movsx rax, r13d
	add edx, 1
	add r13d, 1
	lea rcx, [rcx + 4*rcx]
	lea rax, [rax + 2*rax]
	add r14, 1
	lea rcx, [r15 + 2*rcx + 128]
	lea rax, [r12 + 2*rax]
	mov edi, dword ptr [rcx + 8]
	mov dword ptr [rax], edi
	movzx ecx, word ptr [rcx + 12]
	mov word ptr [rax + 4], cx
	cmp edx, esi
	jle .L4
	mov dword ptr [r15 + 132], edx
.L3:
	mov rsi, rbx
	mov rdi, r15
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r13d, r13d
	jle .L5
	mov rdi, qword ptr [rbp - 56]
	xor ecx, ecx
	mov edx, r13d
	mov rsi, r12
	call hl_tid_sink_add_tuples@PLT
.L5:
	add rsp, 24
	mov rax, r14
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L2:
	mov rdi, qword ptr [rbp - 56]
	mov edx, r13d
	mov rsi, r12
	xor ecx, ecx
	xor r13d, r13d
	call hl_tid_sink_add_tuples@PLT
	mov edx, dword ptr [r15 + 132]
	mov esi, dword ptr [r15 + 128]
	jmp .L1
