# hotloops asm snapshot of `local-index/c-span` under `gcc12-upstream` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_upstream
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_upstream dropped

hotloops_local_index_c_span:
	push r15
	mov r15, rsi
	push r14
	xor r14d, r14d
	push r13
	xor r13d, r13d
	push r12
	push rbp
	mov rbp, rdx
	push rbx
	sub rsp, 8
	mov r12, qword ptr [rdi + 56]
	mov rbx, qword ptr [rdi + 8]
.L0:
	mov ecx, dword ptr [r12 + 128]
	mov eax, dword ptr [r12 + 132]
	lea edx, [rcx + 1]
	sub edx, eax
	test edx, edx
	jle .L1
	add edx, r13d
	cmp edx, 1358
	jg .L2
.L1:
	cmp eax, ecx
	jg .L3
.L4:
	cdqe
	movsx rdx, r13d
	add r14, 1
	add r13d, 1
	lea rax, [rax + 4*rax]
	lea rdx, [rdx + 2*rdx]
	lea rax, [r12 + 2*rax + 128]
	lea rdx, [r15 + 2*rdx]
	mov ecx, dword ptr [rax + 8]
	mov dword ptr [rdx], ecx
	movzx eax, word ptr [rax + 12]
	mov word ptr [rdx + 4], ax
	mov eax, dword ptr [r12 + 132]
	add eax, 1
	mov dword ptr [r12 + 132], eax
	cmp eax, dword ptr [r12 + 128]
	jle .L4
.L3:
	mov rsi, rbx
	mov rdi, r12
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r13d, r13d
	jle .L5
	xor ecx, ecx
	mov edx, r13d
	mov rsi, r15
	mov rdi, rbp
	call hl_tid_sink_add_tuples@PLT
.L5:
	add rsp, 8
	mov rax, r14
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	ret
.L2:
	xor ecx, ecx
	mov edx, r13d
	mov rsi, r15
	mov rdi, rbp
	call hl_tid_sink_add_tuples@PLT
	xor r13d, r13d
	mov eax, dword ptr [r12 + 132]
	mov ecx, dword ptr [r12 + 128]
	jmp .L1
