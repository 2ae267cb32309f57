# hotloops asm snapshot of `local-index/local`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_local_index_local:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 40
	mov qword ptr [rsp + 16], rdx
	mov rbx, rsi
	mov rax, qword ptr [rdi + 8]
	mov qword ptr [rsp + 32], rax
	mov r14, qword ptr [rdi + 56]
	lea r13, [r14 + 136]
	mov rax, qword ptr [rcx + 24]
	mov qword ptr [rsp + 8], rax
	xor ebp, ebp
	xor r15d, r15d
	mov qword ptr [rsp + 24], r14
	jmp .L0
.L1:
	mov rax, qword ptr [rsp + 24]
	mov dword ptr [rax + 132], r14d
	mov r14, rax
	mov rdi, rax
	mov rsi, qword ptr [rsp + 32]
	call qword ptr [rip + hotloops::pg::nbtree::bt_steppage@GOTPCREL]
	test al, al
	je .L2
.L0:
	mov r12d, dword ptr [r14 + 128]
	mov r14d, dword ptr [r14 + 132]
	jmp .L3
.L4:
	movsxd r14, r14d
	lea rax, [r14 + 4*r14]
	lea rcx, [2*rbp]
	add rcx, rbp
	mov edx, dword ptr [r13 + 2*rax]
	movzx eax, word ptr [r13 + 2*rax + 4]
	mov word ptr [rbx + 2*rcx + 4], ax
	mov dword ptr [rbx + 2*rcx], edx
	inc rbp
	inc r15
	inc r14d
.L3:
	cmp r14d, r12d
	jg .L1
	cmp rbp, 1358
	jne .L4
	mov edx, 1358
	mov rdi, qword ptr [rsp + 16]
	mov rsi, rbx
	xor ecx, ecx
	call qword ptr [rsp + 8]
	xor ebp, ebp
	jmp .L4
.L2:
	test rbp, rbp
	je .L5
	mov rdi, qword ptr [rsp + 16]
	mov rsi, rbx
	mov rdx, rbp
	xor ecx, ecx
	call qword ptr [rsp + 8]
.L5:
	mov rax, r15
	add rsp, 40
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
