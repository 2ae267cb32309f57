# hotloops asm snapshot of `local-index/store-each`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_local_index_store_each:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 24
	mov qword ptr [rsp + 16], rdx
	mov rbx, rsi
	mov r12, qword ptr [rdi + 8]
	mov r13, qword ptr [rdi + 56]
	mov rax, qword ptr [rcx + 24]
	mov qword ptr [rsp + 8], rax
	xor ebp, ebp
	mov r14, qword ptr [rip + hotloops::pg::nbtree::bt_steppage@GOTPCREL]
	xor r15d, r15d
	jmp .L0
.L1:
	cdqe
	lea rax, [rax + 4*rax]
	lea rcx, [2*rbp]
	add rcx, rbp
	lea rsi, [r13 + 136]
	mov edx, dword ptr [rsi + 2*rax]
	movzx eax, word ptr [rsi + 2*rax + 4]
	mov word ptr [rbx + 2*rcx + 4], ax
	mov dword ptr [rbx + 2*rcx], edx
	inc rbp
	inc r15
	inc dword ptr [r13 + 132]
.L0:
	mov eax, dword ptr [r13 + 132]
	cmp eax, dword ptr [r13 + 128]
	jle .L2
	mov rdi, r13
	mov rsi, r12
	call r14
	test al, al
	jne .L0
	jmp .L3
.L2:
	cmp rbp, 1358
	jne .L1
	mov edx, 1358
	mov rdi, qword ptr [rsp + 16]
	mov rsi, rbx
	xor ecx, ecx
	call qword ptr [rsp + 8]
	mov eax, dword ptr [r13 + 132]
	xor ebp, ebp
	jmp .L1
.L3:
	test rbp, rbp
	je .L4
	mov rdi, qword ptr [rsp + 16]
	mov rsi, rbx
	mov rdx, rbp
	xor ecx, ecx
	call qword ptr [rsp + 8]
.L4:
	mov rax, r15
	add rsp, 24
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
