# hotloops asm snapshot of `tid-batch/c-batched` under `gcc12-upstream` (csrc/nbtree_bitmap.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_upstream
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_upstream dropped

hotloops_tid_batch_c_batched:
	push r15
	xor r15d, r15d
	push r14
	xor r14d, r14d
	push r13
	push r12
	push rbp
	push rbx
	mov rbx, rsi
	sub rsp, 8184
	mov rax, qword ptr [rdi + 8]
	mov r12, qword ptr [rdi + 56]
	mov qword ptr [rsp + 8], rax
	lea rax, [rsp + 16]
	mov qword ptr [rsp], rax
.L0:
	mov r13d, dword ptr [r12 + 132]
	mov ebp, dword ptr [r12 + 128]
	cmp r13d, ebp
	jle .L1
	jmp .L2
.L3:
	movsx rax, r14d
	add r14d, 1
.L4:
	movsx rdx, r13d
	lea rax, [rax + 2*rax]
	add r13d, 1
	add r15, 1
	lea rdx, [rdx + 4*rdx]
	add rax, rax
	lea rdx, [r12 + 2*rdx + 128]
	mov ecx, dword ptr [rdx + 8]
	mov dword ptr [rsp + rax + 16], ecx
	movzx edx, word ptr [rdx + 12]
	mov word ptr [rsp + rax + 20], dx
	cmp ebp, r13d
	jl .L2
.L1:
	cmp r14d, 1358
	jne .L3
	mov rsi, qword ptr [rsp]
	xor ecx, ecx
	mov edx, 1358
	mov rdi, rbx
	mov r14d, 1
	call hl_tbm_add_tuples@PLT
	xor eax, eax
	jmp .L4
.L2:
	mov dword ptr [r12 + 132], r13d
	mov rsi, qword ptr [rsp + 8]
	mov rdi, r12
	call hl_bt_steppage@PLT
	test al, al
	jne .L0
	test r14d, r14d
	jle .L5
	lea rsi, [rsp + 16]
	xor ecx, ecx
	mov edx, r14d
	mov rdi, rbx
	call hl_tbm_add_tuples@PLT
.L5:
	add rsp, 8184
	mov rax, r15
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	ret
