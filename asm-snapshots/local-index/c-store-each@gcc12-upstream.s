# hotloops asm snapshot of `local-index/c-store-each` under `gcc12-upstream` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_upstream
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_upstream dropped

hotloops_local_index_c_store_each:
	push r15
	xor r15d, r15d
	push r14
	mov r14, rdx
	push r13
	push r12
	mov r12, rsi
	push rbp
	xor ebp, ebp
	push rbx
	sub rsp, 8
	mov rbx, qword ptr [rdi + 56]
	mov r13, qword ptr [rdi + 8]
.L0:
	movsx rax, dword ptr [rbx + 132]
	cmp eax, dword ptr [rbx + 128]
	jle .L1
	mov rsi, r13
	mov rdi, rbx
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r15d, r15d
	jle .L2
	xor ecx, ecx
	mov edx, r15d
	mov rsi, r12
	mov rdi, r14
	call hl_tid_sink_add_tuples@PLT
.L2:
	add rsp, 8
	mov rax, rbp
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	ret
.L1:
	cmp r15d, 1358
	je .L3
	movsx rdx, r15d
	add r15d, 1
	lea rdx, [rdx + 2*rdx]
	lea rdx, [r12 + 2*rdx]
.L4:
	lea rax, [rax + 4*rax]
	add rbp, 1
	lea rax, [rbx + 2*rax + 128]
	mov ecx, dword ptr [rax + 8]
	mov dword ptr [rdx], ecx
	movzx eax, word ptr [rax + 12]
	mov word ptr [rdx + 4], ax
	add dword ptr [rbx + 132], 1
	jmp .L0
.L3:
	mov edx, 1358
	xor ecx, ecx
	mov rsi, r12
	mov rdi, r14
	call hl_tid_sink_add_tuples@PLT
	mov r15d, 1
	movsx rax, dword ptr [rbx + 132]
	mov rdx, r12
	jmp .L4
