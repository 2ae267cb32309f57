# hotloops asm snapshot of `tid-batch/c-batched` under `gcc12-upstream` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_upstream
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_upstream dropped

hotloops_tid_batch_c_batched:
	push r15
	push r14
	xor r14d, r14d
	push r13
	push r12
	xor r12d, r12d
	push rbp
	push rbx
	mov rbx, rdx
	sub rsp, 8184
	mov r15, qword ptr [rdi + 56]
	lea rax, [rsp + 16]
	mov qword ptr [rsp + 8], rsi
	mov qword ptr [rsp], rax
	jmp .L0
.L1:
	mov rdi, qword ptr [rsp + 8]
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	je .L2
.L0:
	mov rdi, qword ptr [rsp + 8]
	call hl_tb_bt_first@PLT
	test rax, rax
	je .L1
.L3:
	mov r13d, dword ptr [r15 + 132]
	mov ebp, dword ptr [r15 + 128]
	cmp r13d, ebp
	jle .L4
	jmp .L5
.L6:
	movsx rax, r12d
	add r12d, 1
.L7:
	movsx rcx, r13d
	lea rax, [rax + 2*rax]
	add r13d, 1
	add r14, 1
	lea rcx, [rcx + 4*rcx]
	add rax, rax
	lea rcx, [r15 + 2*rcx + 128]
	mov esi, dword ptr [rcx + 8]
	mov dword ptr [rsp + rax + 16], esi
	movzx ecx, word ptr [rcx + 12]
	mov word ptr [rsp + rax + 20], cx
	cmp ebp, r13d
	jl .L5
.L4:
	cmp r12d, 1358
	jne .L6
	mov rsi, qword ptr [rsp]
	xor ecx, ecx
	mov edx, 1358
	mov rdi, rbx
	mov r12d, 1
	call hl_tbm_add_tuples@PLT
	xor eax, eax
	jmp .L7
.L5:
	mov dword ptr [r15 + 132], r13d
	mov rdi, qword ptr [rsp + 8]
	call hl_tb_bt_steppage@PLT
	test al, al
	jne .L3
	mov rdi, qword ptr [rsp + 8]
	call hl_tb_bt_start_prim_scan@PLT
	test al, al
	jne .L0
.L2:
	test r12d, r12d
	jle .L8
	lea rsi, [rsp + 16]
	xor ecx, ecx
	mov edx, r12d
	mov rdi, rbx
	call hl_tbm_add_tuples@PLT
.L8:
	add rsp, 8184
	mov rax, r14
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	ret
