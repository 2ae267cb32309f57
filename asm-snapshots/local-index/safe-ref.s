# hotloops asm snapshot of `local-index/safe-ref`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_local_index_safe_ref:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 40
	mov qword ptr [rsp + 24], rcx
	mov rbx, rdx
	mov r13, rsi
	mov rbp, rdi
	mov rax, qword ptr [r8 + 24]
	mov qword ptr [rsp + 16], rax
	xor r12d, r12d
	mov r15, qword ptr [rip + hotloops::pg::nbtree::bt_steppage@GOTPCREL]
	mov qword ptr [rsp + 32], 0
.L0:
	movsxd r14, dword ptr [rbp + 132]
	cmp r14d, dword ptr [rbp + 128]
	jle .L1
	mov rdi, rbp
	mov rsi, r13
	call r15
	test al, al
	jne .L0
	jmp .L2
.L1:
	cmp r12, 1358
	jne .L3
	mov edx, 1358
	mov rdi, qword ptr [rsp + 24]
	mov rsi, rbx
	xor ecx, ecx
	call qword ptr [rsp + 16]
	cmp r14d, 1357
	ja .L4
	lea rax, [r14 + 4*r14]
	lea rdx, [rbp + 136]
	movzx ecx, word ptr [rdx + 2*rax + 4]
	mov word ptr [rsp + 12], cx
	mov eax, dword ptr [rdx + 2*rax]
	mov dword ptr [rsp + 8], eax
	xor r12d, r12d
	jmp .L5
.L3:
	cmp r14d, 1358
	jae .L4
	lea rax, [r14 + 4*r14]
	lea rdx, [rbp + 136]
	movzx ecx, word ptr [rdx + 2*rax + 4]
	mov word ptr [rsp + 12], cx
	mov eax, dword ptr [rdx + 2*rax]
	mov dword ptr [rsp + 8], eax
	cmp r12, 1358
	jae .L6
.L5:
	lea rax, [r12 + 2*r12]
	movzx ecx, word ptr [rsp + 12]
	mov word ptr [rbx + 2*rax + 4], cx
	mov ecx, dword ptr [rsp + 8]
	mov dword ptr [rbx + 2*rax], ecx
	inc r12
	inc qword ptr [rsp + 32]
	inc r14d
	mov dword ptr [rbp + 132], r14d
	jmp .L0
.L2:
	test r12, r12
	je .L7
	cmp r12, 1359
	jae .L8
	mov rdi, qword ptr [rsp + 24]
	mov rsi, rbx
	mov rdx, r12
	xor ecx, ecx
	call qword ptr [rsp + 16]
.L7:
	mov rax, qword ptr [rsp + 32]
	add rsp, 40
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L8:
	lea rcx, [rip + .Lanon]
	mov edx, 1358
	xor edi, edi
	mov rsi, r12
	call qword ptr [rip + core::slice::index::slice_index_fail@GOTPCREL]
.L4:
	lea rdx, [rip + .Lanon]
	mov esi, 1358
	mov rdi, r14
	call qword ptr [rip + core::panicking::panic_bounds_check@GOTPCREL]
.L6:
	lea rdx, [rip + .Lanon]
	mov esi, 1358
	mov rdi, r12
	call qword ptr [rip + core::panicking::panic_bounds_check@GOTPCREL]
