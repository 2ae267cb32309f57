# hotloops asm snapshot of `tid-batch/batched`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_tid_batch_batched:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	push rax
	mov rbx, rdx
	mov r14, rsi
	mov rax, qword ptr [rdi]
	mov r15, qword ptr [rdi + 8]
	test rax, rax
	je .L0
	cmp eax, 1
	jne .L1
	mov r13, qword ptr [r15 + 104]
	xor r12d, r12d
	test r13, r13
	je .L2
	xor esi, esi
.L3:
	lea rbp, [rsi + 1]
	mov rdi, r15
	mov rdx, r14
	mov rcx, rbx
	call qword ptr [rip + hl_tid_batch_batched_pages@GOTPCREL]
	add r12, rax
	mov rsi, rbp
	cmp r13, rbp
	jne .L3
.L2:
	mov rax, r12
	add rsp, 8
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L0:
	mov rdi, r15
	mov rsi, r14
	mov rdx, rbx
	add rsp, 8
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	jmp qword ptr [rip + hl_tid_batch_batched_btree@GOTPCREL]
.L1:
	mov rdi, r15
	mov rsi, r14
	mov rdx, rbx
	add rsp, 8
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	jmp qword ptr [rip + hl_tid_batch_batched_bloom@GOTPCREL]

hl_tid_batch_batched_btree:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 4096
	mov qword ptr [rsp], 0
	sub rsp, 4088
	mov rbx, rsi
	mov r12, rdi
	mov rbp, qword ptr [rdi + 128]
	lea r15, [rbp + 136]
	mov rax, qword ptr [rdx + 24]
	mov qword ptr [rsp + 8], rax
	xor r13d, r13d
	xor r14d, r14d
	mov qword ptr [rsp + 24], rdi
	mov qword ptr [rsp + 16], rbp
	jmp .L0
.L1:
	mov rdi, r12
	call hotloops::pg::nbtscan::bt_start_prim_scan
	test al, al
	je .L2
.L0:
	mov rdi, r12
	call hotloops::pg::nbtscan::bt_first
	jmp .L3
.L4:
	mov rbp, qword ptr [rsp + 16]
	mov dword ptr [rbp + 132], r12d
	mov r12, qword ptr [rsp + 24]
	mov rdi, r12
	call hotloops::pg::nbtscan::bt_steppage_buf
.L3:
	test al, al
	je .L1
	mov rax, rbp
	mov ebp, dword ptr [rbp + 128]
	mov r12d, dword ptr [rax + 132]
	jmp .L5
.L6:
	movsxd r12, r12d
	lea rax, [r12 + 4*r12]
	lea rcx, [2*r13]
	add rcx, r13
	movzx edx, word ptr [r15 + 2*rax + 4]
	mov word ptr [rsp + 2*rcx + 40], dx
	mov eax, dword ptr [r15 + 2*rax]
	mov dword ptr [rsp + 2*rcx + 36], eax
	inc r13
	inc r14
	inc r12d
.L5:
	cmp r12d, ebp
	jg .L4
	cmp r13, 1358
	jne .L6
	mov edx, 1358
	mov rdi, rbx
	lea rsi, [rsp + 36]
	xor ecx, ecx
	call qword ptr [rsp + 8]
	xor r13d, r13d
	jmp .L6
.L2:
	test r13, r13
	je .L7
	lea rsi, [rsp + 36]
	mov rdi, rbx
	mov rdx, r13
	xor ecx, ecx
	call qword ptr [rsp + 8]
.L7:
	mov rax, r14
	add rsp, 8184
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret

hl_tid_batch_batched_pages:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 4096
	mov qword ptr [rsp], 0
	sub rsp, 840
	mov r14, rcx
	mov qword ptr [rsp + 24], rdx
	mov rbp, rdi
	call hotloops::pg::pagedam::am_first
	test al, al
	je .L0
	mov rax, qword ptr [r14 + 24]
	mov qword ptr [rsp + 16], rax
	xor r12d, r12d
	xor r13d, r13d
	xor r14d, r14d
	mov qword ptr [rsp + 32], rbp
	jmp .L1
.L2:
	mov rbp, qword ptr [rsp + 32]
	mov dword ptr [rbp], r15d
	mov rdi, rbp
	call hotloops::pg::pagedam::am_steppage
	test al, al
	je .L3
.L1:
	mov r15d, dword ptr [rbp]
	mov ebx, dword ptr [rbp + 4]
	cmp r15d, ebx
	jg .L2
	mov rbp, qword ptr [rbp + 16]
	jmp .L4
.L5:
	lea rax, [2*r13]
	add rax, r13
	movzx ecx, word ptr [rsp + 12]
	mov word ptr [rsp + 2*rax + 44], cx
	mov ecx, dword ptr [rsp + 8]
	mov dword ptr [rsp + 2*rax + 40], ecx
	inc r13
	inc r14
	inc r15d
	cmp r15d, ebx
	jg .L2
.L4:
	movsxd rax, r15d
	movzx ecx, word ptr [rbp + 8*rax + 4]
	mov word ptr [rsp + 12], cx
	mov ecx, dword ptr [rbp + 8*rax]
	mov dword ptr [rsp + 8], ecx
	cmp byte ptr [rbp + 8*rax + 6], 0
	je .L6
	cmp r12, 408
	jne .L7
	mov edx, 408
	mov rdi, qword ptr [rsp + 24]
	lea rsi, [rsp + 2488]
	mov ecx, 1
	call qword ptr [rsp + 16]
	xor r12d, r12d
.L7:
	lea rax, [r12 + 2*r12]
	movzx ecx, word ptr [rsp + 12]
	mov word ptr [rsp + 2*rax + 2492], cx
	mov ecx, dword ptr [rsp + 8]
	mov dword ptr [rsp + 2*rax + 2488], ecx
	inc r12
	inc r14
	inc r15d
	cmp r15d, ebx
	jle .L4
	jmp .L2
.L6:
	cmp r13, 408
	jne .L5
	mov edx, 408
	mov rdi, qword ptr [rsp + 24]
	lea rsi, [rsp + 40]
	xor ecx, ecx
	call qword ptr [rsp + 16]
	xor r13d, r13d
	jmp .L5
.L0:
	xor r14d, r14d
	jmp .L8
.L3:
	test r13, r13
	je .L9
	lea rsi, [rsp + 40]
	mov rdi, qword ptr [rsp + 24]
	mov rdx, r13
	xor ecx, ecx
	call qword ptr [rsp + 16]
.L9:
	test r12, r12
	je .L8
	lea rsi, [rsp + 2488]
	mov rdi, qword ptr [rsp + 24]
	mov rdx, r12
	mov ecx, 1
	call qword ptr [rsp + 16]
.L8:
	mov rax, r14
	add rsp, 4936
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret

hl_tid_batch_batched_bloom:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 2488
	mov r8, rdx
	mov qword ptr [rsp], rsi
	mov rcx, qword ptr [rdi + 16]
	movabs rdx, -9187201950435737471
	mov rax, rcx
	mul rdx
	shr rdx, 8
	movabs rax, -72340172838076673
	imul rax, rcx
	ror rax
	movabs rcx, 36170086419038336
	xor esi, esi
	cmp rax, rcx
	seta sil
	add rsi, rdx
	mov qword ptr [rsp + 24], rsi
	je .L0
	mov r15, rdi
	mov qword ptr [rsp + 8], r8
	mov rax, qword ptr [r8 + 24]
	mov qword ptr [rsp + 16], rax
	xor r12d, r12d
	xor ebp, ebp
	xor ebx, ebx
	jmp .L1
.L2:
	inc rbx
	cmp rbx, qword ptr [rsp + 24]
	je .L3
.L1:
	mov rdi, qword ptr [r15 + 8]
	mov rsi, qword ptr [r15 + 16]
	mov rdx, rbx
	lea rcx, [rsp + 32]
	call hotloops::pg::bloom::bl_read_page
	mov r13, qword ptr [rsp + 32]
	test r13, r13
	je .L2
	mov r14, rax
	add r14, 14
	jmp .L4
.L5:
	lea rax, [r14 - 14]
	lea rcx, [2*rbp]
	add rcx, rbp
	mov edx, dword ptr [rax]
	movzx eax, word ptr [rax + 4]
	mov word ptr [rsp + 2*rcx + 44], ax
	mov dword ptr [rsp + 2*rcx + 40], edx
	inc rbp
	inc r12
.L6:
	add r14, 16
	dec r13
	je .L2
.L4:
	movzx eax, word ptr [r14 - 8]
	not eax
	test word ptr [r15 + 24], ax
	jne .L6
	movzx eax, word ptr [r14 - 6]
	not eax
	test word ptr [r15 + 26], ax
	jne .L6
	movzx eax, word ptr [r14 - 4]
	not eax
	test word ptr [r15 + 28], ax
	jne .L6
	movzx eax, word ptr [r14 - 2]
	not eax
	test word ptr [r15 + 30], ax
	jne .L6
	movzx eax, word ptr [r14]
	not eax
	test word ptr [r15 + 32], ax
	jne .L6
	cmp rbp, 408
	jne .L5
	mov edx, 408
	mov rdi, qword ptr [rsp]
	lea rsi, [rsp + 40]
	mov ecx, 1
	call qword ptr [rsp + 16]
	xor ebp, ebp
	jmp .L5
.L3:
	test rbp, rbp
	je .L7
	lea rsi, [rsp + 40]
	mov rdi, qword ptr [rsp]
	mov rdx, rbp
	mov ecx, 1
	mov rax, qword ptr [rsp + 8]
	call qword ptr [rax + 24]
	jmp .L7
.L0:
	xor r12d, r12d
.L7:
	mov rax, r12
	add rsp, 2488
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
