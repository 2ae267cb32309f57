# hotloops asm snapshot of `local-index/c-store-each` under `gcc12-pg` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_pg dropped

hotloops_local_index_c_store_each:
	push rbp
	mov rbp, rsp
	push r15
	xor r15d, r15d
	push r14
	push r13
	mov r13, rsi
	push r12
	xor r12d, r12d
	push rbx
	sub rsp, 24
	mov rbx, qword ptr [rdi + 56]
	mov r14, qword ptr [rdi + 8]
	mov qword ptr [rbp - 56], rdx
.L0:
	movsx rax, dword ptr [rbx + 132]
	cmp eax, dword ptr [rbx + 128]
	jle .L1
	mov rsi, r14
	mov rdi, rbx
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r15d, r15d
	jle .L2
	mov rdi, qword ptr [rbp - 56]
	xor ecx, ecx
	mov edx, r15d
	mov rsi, r13
	call hl_tid_sink_add_tuples@PLT
.L2:
	add rsp, 24
	mov rax, r12
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L1:
	cmp r15d, 1358
	je .L3
	movsx rcx, r15d
	add r15d, 1
	lea rcx, [rcx + 2*rcx]
	lea rcx, [r13 + 2*rcx]
.L4:
	lea rax, [rax + 4*rax]
	add r12, 1
	lea rax, [rbx + 2*rax + 128]
	mov esi, dword ptr [rax + 8]
	mov dword ptr [rcx], esi
	movzx eax, word ptr [rax + 12]
	mov word ptr [rcx + 4], ax
	add dword ptr [rbx + 132], 1
	jmp .L0
.L3:
	mov rdi, qword ptr [rbp - 56]
	xor ecx, ecx
	mov edx, 1358
	mov rsi, r13
	mov r15d, 1
	call hl_tid_sink_add_tuples@PLT
	movsx rax, dword ptr [rbx + 132]
	mov rcx, r13
	jmp .L4
