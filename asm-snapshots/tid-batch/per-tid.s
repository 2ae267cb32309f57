# hotloops asm snapshot of `tid-batch/per-tid`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_tid_batch_per_tid:
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
	call qword ptr [rip + hl_tid_batch_per_tid_pages@GOTPCREL]
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
	jmp qword ptr [rip + hl_tid_batch_per_tid_btree@GOTPCREL]
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
	jmp qword ptr [rip + hl_tid_batch_per_tid_bloom@GOTPCREL]

hl_tid_batch_per_tid_btree:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	push rax
	mov rbx, rsi
	mov r14, rdi
	mov r12, qword ptr [rdi + 128]
	lea r13, [r12 + 136]
	mov rbp, qword ptr [rdx + 24]
	xor r15d, r15d
	jmp .L0
.L1:
	mov rdi, r14
	call hotloops::pg::nbtscan::bt_start_prim_scan
	test al, al
	je .L2
.L0:
	mov rdi, r14
	call hotloops::pg::nbtscan::bt_first
	test al, al
	je .L1
	inc r15
	lea rsi, [r14 + 328]
	jmp .L3
.L4:
	cdqe
	lea rax, [rax + 4*rax]
	lea rsi, [2*rax]
	add rsi, r13
	inc r15
.L3:
	mov edx, 1
	mov rdi, rbx
	xor ecx, ecx
	call rbp
	mov eax, dword ptr [r12 + 132]
	inc eax
	mov dword ptr [r12 + 132], eax
	cmp eax, dword ptr [r12 + 128]
	jle .L4
	mov rdi, r14
	call hotloops::pg::nbtscan::bt_next
	test al, al
	je .L1
	mov eax, dword ptr [r12 + 132]
	jmp .L4
.L2:
	mov rax, r15
	add rsp, 8
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret

hl_tid_batch_per_tid_pages:
	push r15
	push r14
	push r12
	push rbx
	push rax
	mov r15, rcx
	mov rbx, rdx
	mov r14, rdi
	call hotloops::pg::pagedam::am_first
	test al, al
	je .L0
	mov r12, qword ptr [r15 + 24]
	mov r15d, 1
	jmp .L1
.L2:
	inc r15
.L1:
	mov rax, qword ptr [r14 + 16]
	movsxd rcx, dword ptr [r14]
	lea rsi, [rax + 8*rcx]
	movzx ecx, byte ptr [rax + 8*rcx + 6]
	mov edx, 1
	mov rdi, rbx
	call r12
	mov eax, dword ptr [r14]
	inc eax
	mov dword ptr [r14], eax
	cmp eax, dword ptr [r14 + 4]
	jle .L2
	mov rdi, r14
	call hotloops::pg::pagedam::am_steppage
	test al, al
	jne .L2
	jmp .L3
.L0:
	xor r15d, r15d
.L3:
	mov rax, r15
	add rsp, 8
	pop rbx
	pop r12
	pop r14
	pop r15
	ret

hl_tid_batch_per_tid_bloom:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 24
	mov rcx, rdx
	mov qword ptr [rsp + 8], rsi
	mov rsi, qword ptr [rdi + 16]
	movabs rdx, -9187201950435737471
	mov rax, rsi
	mul rdx
	shr rdx, 8
	movabs rax, -72340172838076673
	imul rax, rsi
	ror rax
	movabs rsi, 36170086419038336
	xor r12d, r12d
	cmp rax, rsi
	seta r12b
	add r12, rdx
	je .L0
	mov r14, rdi
	mov rax, qword ptr [rcx + 24]
	mov qword ptr [rsp], rax
	xor r15d, r15d
	xor r13d, r13d
	jmp .L1
.L2:
	inc r13
	cmp r13, r12
	je .L3
.L1:
	mov rdi, qword ptr [r14 + 8]
	mov rsi, qword ptr [r14 + 16]
	mov rdx, r13
	lea rcx, [rsp + 16]
	call hotloops::pg::bloom::bl_read_page
	mov rbx, qword ptr [rsp + 16]
	test rbx, rbx
	je .L2
	mov rbp, rax
	jmp .L4
.L5:
	add rbp, 16
	dec rbx
	je .L2
.L4:
	movzx eax, word ptr [rbp + 6]
	not eax
	test word ptr [r14 + 24], ax
	jne .L5
	movzx eax, word ptr [rbp + 8]
	not eax
	test word ptr [r14 + 26], ax
	jne .L5
	movzx eax, word ptr [rbp + 10]
	not eax
	test word ptr [r14 + 28], ax
	jne .L5
	movzx eax, word ptr [rbp + 12]
	not eax
	test word ptr [r14 + 30], ax
	jne .L5
	movzx eax, word ptr [rbp + 14]
	not eax
	test word ptr [r14 + 32], ax
	jne .L5
	mov edx, 1
	mov rdi, qword ptr [rsp + 8]
	mov rsi, rbp
	mov ecx, 1
	call qword ptr [rsp]
	inc r15
	jmp .L5
.L0:
	xor r15d, r15d
.L3:
	mov rax, r15
	add rsp, 24
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
