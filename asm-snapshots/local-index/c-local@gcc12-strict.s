# hotloops asm snapshot of `local-index/c-local` under `gcc12-strict` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_local_index_c_local:
	push rbp
	mov rbp, rsp
	push r15
	xor r15d, r15d
	push r14
	mov r14, rsi
	push r13
	push r12
	xor r12d, r12d
	push rbx
	sub rsp, 40
	mov rax, qword ptr [rdi + 8]
	mov r13, qword ptr [rdi + 56]
	mov qword ptr [rbp - 64], rdx
	mov qword ptr [rbp - 72], rax
.L0:
	mov ebx, dword ptr [r13 + 132]
	mov r10d, dword ptr [r13 + 128]
	cmp ebx, r10d
	jle .L1
	jmp .L2
.L3:
	movsx rax, r12d
	add r12d, 1
	lea rax, [rax + 2*rax]
	lea rdx, [r14 + 2*rax]
.L4:
	movsx rax, ebx
	add ebx, 1
	add r15, 1
	lea rax, [rax + 4*rax]
	lea rax, [r13 + 2*rax + 128]
	mov ecx, dword ptr [rax + 8]
	mov dword ptr [rdx], ecx
	movzx eax, word ptr [rax + 12]
	mov word ptr [rdx + 4], ax
	cmp r10d, ebx
	jl .L2
.L1:
	cmp r12d, 1358
	jne .L3
	mov rdi, qword ptr [rbp - 64]
	mov edx, 1358
	xor ecx, ecx
	mov rsi, r14
	mov dword ptr [rbp - 52], r10d
	mov r12d, 1
	call hl_tid_sink_add_tuples@PLT
	mov r10d, dword ptr [rbp - 52]
	mov rdx, r14
	jmp .L4
.L2:
	mov dword ptr [r13 + 132], ebx
	mov rsi, qword ptr [rbp - 72]
	mov rdi, r13
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r12d, r12d
	jle .L5
	mov rdi, qword ptr [rbp - 64]
	xor ecx, ecx
	mov edx, r12d
	mov rsi, r14
	call hl_tid_sink_add_tuples@PLT
.L5:
	add rsp, 40
	mov rax, r15
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
