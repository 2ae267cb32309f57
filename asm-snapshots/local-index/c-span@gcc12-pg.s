# hotloops asm snapshot of `local-index/c-span` under `gcc12-pg` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_pg dropped

hotloops_local_index_c_span:
	push rbp
	mov rbp, rsp
	push r15
	xor r15d, r15d
	push r14
	xor r14d, r14d
	push r13
	push r12
	mov r12, rsi
	push rbx
	sub rsp, 24
	mov r13, qword ptr [rdi + 56]
	mov rbx, qword ptr [rdi + 8]
	mov qword ptr [rbp - 56], rdx
.L0:
	mov ecx, dword ptr [r13 + 128]
	mov eax, dword ptr [r13 + 132]
	lea edx, [rcx + 1]
	sub edx, eax
	test edx, edx
	jle .L1
	add edx, r14d
	cmp edx, 1358
	jg .L2
.L1:
	cmp eax, ecx
	jg .L3
.L4:
	cdqe
	movsx rdx, r14d
	add r15, 1
	add r14d, 1
	lea rax, [rax + 4*rax]
	lea rdx, [rdx + 2*rdx]
	lea rax, [r13 + 2*rax + 128]
	lea rdx, [r12 + 2*rdx]
	mov ecx, dword ptr [rax + 8]
	mov dword ptr [rdx], ecx
	movzx eax, word ptr [rax + 12]
	mov word ptr [rdx + 4], ax
	mov eax, dword ptr [r13 + 132]
	add eax, 1
	mov dword ptr [r13 + 132], eax
	cmp eax, dword ptr [r13 + 128]
	jle .L4
.L3:
	mov rsi, rbx
	mov rdi, r13
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r14d, r14d
	jle .L5
	mov rdi, qword ptr [rbp - 56]
	xor ecx, ecx
	mov edx, r14d
	mov rsi, r12
	call hl_tid_sink_add_tuples@PLT
.L5:
	add rsp, 24
	mov rax, r15
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L2:
	mov rdi, qword ptr [rbp - 56]
	xor ecx, ecx
	mov edx, r14d
	mov rsi, r12
	xor r14d, r14d
	call hl_tid_sink_add_tuples@PLT
	mov eax, dword ptr [r13 + 132]
	mov ecx, dword ptr [r13 + 128]
	jmp .L1
