# hotloops asm snapshot of `tid-batch/runs`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_tid_batch_runs:
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
	call qword ptr [rip + hl_tid_batch_runs_pages@GOTPCREL]
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
	jmp qword ptr [rip + hl_tid_batch_runs_btree@GOTPCREL]
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
	jmp qword ptr [rip + hl_tid_batch_runs_bloom@GOTPCREL]

hl_tid_batch_runs_btree:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 4096
	mov qword ptr [rsp], 0
	sub rsp, 72
	mov qword ptr [rsp + 16], rsi
	mov r15, rdi
	mov rax, qword ptr [rdi + 168]
	mov qword ptr [rsp + 32], rax
	add rax, 136
	mov qword ptr [rsp + 40], rax
	mov rax, qword ptr [rdx + 24]
	mov qword ptr [rsp + 56], rax
	mov rax, qword ptr [rdx + 32]
	mov qword ptr [rsp + 24], rax
	mov r14, -1
	xor r13d, r13d
	xor ebp, ebp
	xor ebx, ebx
	mov qword ptr [rsp + 48], 0
	mov qword ptr [rsp + 64], rdi
	jmp .L0
.L1:
	mov rdi, r15
	call hotloops::study::tid_batch::bt_start_prim_scan
	test al, al
	je .L2
.L0:
	mov rdi, r15
	call hotloops::study::tid_batch::bt_first
	test al, al
	mov r12, qword ptr [rsp + 32]
	jne .L3
	jmp .L1
.L4:
	mov eax, dword ptr [rsi + 132]
.L5:
	mov ebp, r9d
	mov r13, r8
	mov ecx, r15d
	sub ecx, eax
	movsxd rax, ecx
	add qword ptr [rsp + 48], rax
	mov dword ptr [rsi + 132], r15d
	mov r15, qword ptr [rsp + 64]
	mov rdi, r15
	mov r12, rsi
	call hotloops::study::tid_batch::bt_steppage_buf
	test al, al
	je .L1
.L3:
	mov r10d, dword ptr [r12 + 128]
	mov eax, dword ptr [r12 + 132]
	mov r15d, eax
	cmp eax, r10d
	mov rsi, r12
	mov rdi, qword ptr [rsp + 40]
	mov r8, r13
	mov r9d, ebp
	mov dword ptr [rsp + 12], r10d
	jg .L5
.L6:
	movsxd rax, r15d
	lea rax, [rax + 4*rax]
	lea rbp, [rdi + 2*rax]
	movzx r13d, word ptr [rdi + 2*rax + 4]
	dec r13d
	cmp r13d, 290
	ja .L7
	mov eax, dword ptr [rbp]
	mov r12d, r13d
	shr r12d, 6
	shl r12, 32
	or r12, rax
	cmp r12, r14
	je .L8
	mov ecx, eax
	shr ecx, 16
	cmp r14, -1
	je .L9
	mov rdx, r8
	shl rdx, 4
	shr r14, 32
	mov dword ptr [rsp + rdx + 72], r9d
	mov byte ptr [rsp + rdx + 76], r14b
	mov byte ptr [rsp + rdx + 77], 0
	mov qword ptr [rsp + rdx + 80], rbx
	inc r8
	cmp r8, 256
	jne .L9
	mov edx, 256
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 72]
	call qword ptr [rsp + 24]
	mov r10d, dword ptr [rsp + 12]
	mov rdi, qword ptr [rsp + 40]
	mov rsi, qword ptr [rsp + 32]
	movzx eax, word ptr [rbp]
	movzx ecx, word ptr [rbp + 2]
	xor r8d, r8d
.L9:
	shl eax, 16
	movzx r9d, cx
	or r9d, eax
	xor ebx, ebx
	mov r14, r12
.L8:
	bts rbx, r13
	inc r15d
	cmp r15d, r10d
	jle .L6
	jmp .L4
.L7:
	cmp r14, -1
	jne .L10
	mov r12d, r9d
	jmp .L11
.L10:
	mov rax, r8
	shl rax, 4
	shr r14, 32
	mov r12d, r9d
	mov dword ptr [rsp + rax + 72], r9d
	mov byte ptr [rsp + rax + 76], r14b
	mov byte ptr [rsp + rax + 77], 0
	mov qword ptr [rsp + rax + 80], rbx
	inc r8
	mov edx, 256
	cmp r8, 256
	je .L12
.L11:
	mov rdx, r8
	test r8, r8
	je .L13
.L12:
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 72]
	call qword ptr [rsp + 24]
.L13:
	mov rdi, qword ptr [rsp + 16]
	mov rsi, qword ptr [rsp + 56]
	mov rdx, rbp
	xor ecx, ecx
	call hotloops::study::tid_batch::add_one_cold
	mov r14, -1
	xor r8d, r8d
	mov rsi, qword ptr [rsp + 32]
	mov rdi, qword ptr [rsp + 40]
	mov r9d, r12d
	mov r10d, dword ptr [rsp + 12]
	inc r15d
	cmp r15d, r10d
	jle .L6
	jmp .L4
.L2:
	cmp r14, -1
	je .L14
	mov rax, r13
	shl rax, 4
	shr r14, 32
	mov dword ptr [rsp + rax + 72], ebp
	mov byte ptr [rsp + rax + 76], r14b
	mov byte ptr [rsp + rax + 77], 0
	mov qword ptr [rsp + rax + 80], rbx
	inc r13
	mov edx, 256
	cmp r13, 256
	je .L15
.L14:
	mov rdx, r13
	test r13, r13
	je .L16
.L15:
	lea rsi, [rsp + 72]
	mov rdi, qword ptr [rsp + 16]
	call qword ptr [rsp + 24]
.L16:
	mov rax, qword ptr [rsp + 48]
	add rsp, 4168
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret

hl_tid_batch_runs_pages:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 4096
	mov qword ptr [rsp], 0
	sub rsp, 56
	mov r14, rcx
	mov qword ptr [rsp + 8], rdx
	mov qword ptr [rsp + 32], rdi
	call hotloops::study::tid_batch::am_first
	xor ecx, ecx
	test al, al
	je .L0
	mov rax, qword ptr [r14 + 24]
	mov qword ptr [rsp + 40], rax
	mov rax, qword ptr [r14 + 32]
	mov qword ptr [rsp + 24], rax
	mov r13, -1
	xor edx, edx
	xor esi, esi
	xor edi, edi
	xor ebx, ebx
	mov r14, qword ptr [rsp + 32]
	jmp .L1
.L2:
	mov qword ptr [rsp + 16], rdi
	mov qword ptr [rsp], rdx
	mov r12, rsi
	mov r15, rcx
	mov eax, ebp
.L3:
	mov ecx, ebp
	sub ecx, eax
	movsxd rax, ecx
	add rbx, rax
	mov dword ptr [r14], ebp
	mov rdi, r14
	call hotloops::study::tid_batch::am_steppage
	test al, al
	mov rcx, r15
	mov rsi, r12
	mov rdx, qword ptr [rsp]
	mov rdi, qword ptr [rsp + 16]
	je .L4
.L1:
	mov ebp, dword ptr [r14]
	mov r8d, dword ptr [r14 + 4]
	cmp ebp, r8d
	jg .L2
	mov qword ptr [rsp + 48], rbx
	mov r14, qword ptr [r14 + 16]
	mov dword ptr [rsp], r8d
.L5:
	movsxd rbx, ebp
	movzx r9d, byte ptr [r14 + 8*rbx + 6]
	movzx r12d, word ptr [r14 + 8*rbx + 4]
	dec r12d
	cmp r12d, 290
	ja .L6
	mov eax, dword ptr [r14 + 8*rbx]
	mov r15d, r12d
	shr r15d, 6
	shl r15, 32
	or r15, rax
	cmp r15, r13
	je .L7
	cmp r13, -1
	je .L8
	mov rax, rsi
	shl rax, 4
	shr r13, 32
	mov dword ptr [rsp + rax + 56], ecx
	mov byte ptr [rsp + rax + 60], r13b
	mov byte ptr [rsp + rax + 61], dil
	mov qword ptr [rsp + rax + 64], rdx
	inc rsi
	cmp rsi, 256
	jne .L8
	mov edx, 256
	mov rdi, qword ptr [rsp + 8]
	lea rsi, [rsp + 56]
	mov r13d, r9d
	call qword ptr [rsp + 24]
	mov r9d, r13d
	mov r8d, dword ptr [rsp]
	xor esi, esi
.L8:
	movzx eax, word ptr [r14 + 8*rbx + 2]
	movzx ecx, word ptr [r14 + 8*rbx]
	shl ecx, 16
	or ecx, eax
	xor edx, edx
	xor edi, edi
	mov r13, r15
.L7:
	bts rdx, r12
	or dil, r9b
	inc ebp
	cmp ebp, r8d
	jle .L5
	jmp .L9
.L6:
	cmp r13, -1
	mov qword ptr [rsp + 16], rcx
	jne .L10
	mov r15, rdi
	mov r12, rdx
	jmp .L11
.L10:
	mov rax, rsi
	shl rax, 4
	shr r13, 32
	mov dword ptr [rsp + rax + 56], ecx
	mov byte ptr [rsp + rax + 60], r13b
	mov r15, rdi
	mov byte ptr [rsp + rax + 61], dil
	mov r12, rdx
	mov qword ptr [rsp + rax + 64], rdx
	inc rsi
	mov edx, 256
	cmp rsi, 256
	je .L12
.L11:
	mov rdx, rsi
	test rsi, rsi
	je .L13
.L12:
	mov rdi, qword ptr [rsp + 8]
	lea rsi, [rsp + 56]
	mov r13d, r9d
	call qword ptr [rsp + 24]
	mov r9d, r13d
.L13:
	lea rdx, [r14 + 8*rbx]
	movzx ecx, r9b
	mov rdi, qword ptr [rsp + 8]
	mov rsi, qword ptr [rsp + 40]
	call hotloops::study::tid_batch::add_one_cold
	mov r13, -1
	xor esi, esi
	mov rcx, qword ptr [rsp + 16]
	mov rdx, r12
	mov rdi, r15
	mov r8d, dword ptr [rsp]
	inc ebp
	cmp ebp, r8d
	jle .L5
.L9:
	mov qword ptr [rsp + 16], rdi
	mov qword ptr [rsp], rdx
	mov r12, rsi
	mov r15, rcx
	mov r14, qword ptr [rsp + 32]
	mov eax, dword ptr [r14]
	mov rbx, qword ptr [rsp + 48]
	jmp .L3
.L0:
	xor ebx, ebx
	jmp .L14
.L4:
	cmp r13, -1
	je .L15
	mov rax, rsi
	shl rax, 4
	shr r13, 32
	mov dword ptr [rsp + rax + 56], ecx
	mov byte ptr [rsp + rax + 60], r13b
	mov byte ptr [rsp + rax + 61], dil
	mov qword ptr [rsp + rax + 64], rdx
	inc rsi
	mov edx, 256
	cmp rsi, 256
	je .L16
.L15:
	mov rdx, rsi
	test rsi, rsi
	je .L14
.L16:
	lea rsi, [rsp + 56]
	mov rdi, qword ptr [rsp + 8]
	call qword ptr [rsp + 24]
.L14:
	mov rax, rbx
	add rsp, 4152
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret

hl_tid_batch_runs_bloom:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 4096
	mov qword ptr [rsp], 0
	sub rsp, 88
	mov r8, rdx
	mov qword ptr [rsp + 16], rsi
	mov rcx, qword ptr [rdi + 16]
	movabs rdx, -9187201950435737471
	mov rax, rcx
	mul rdx
	movabs rax, -72340172838076673
	imul rax, rcx
	ror rax
	shr rdx, 8
	movabs rcx, 36170086419038336
	xor esi, esi
	cmp rax, rcx
	seta sil
	add rsi, rdx
	mov qword ptr [rsp + 72], rsi
	je .L0
	mov r12, rdi
	mov qword ptr [rsp + 24], 0
	mov rax, qword ptr [r8 + 24]
	mov qword ptr [rsp + 64], rax
	mov qword ptr [rsp + 40], r8
	mov rax, qword ptr [r8 + 32]
	mov qword ptr [rsp + 48], rax
	mov r8, -1
	mov qword ptr [rsp + 8], 0
	xor r13d, r13d
	mov qword ptr [rsp + 32], 0
	mov qword ptr [rsp], 0
	xor edi, edi
	jmp .L1
.L2:
	mov rdi, rbp
	mov r8, r14
.L3:
	inc r13
	cmp r13, qword ptr [rsp + 72]
	je .L4
.L1:
	mov r14, r8
	mov rbp, rdi
	mov rdi, qword ptr [r12 + 8]
	mov rsi, qword ptr [r12 + 16]
	mov rdx, r13
	lea rcx, [rsp + 80]
	call hotloops::study::tid_batch::bl_read_page
	mov r15, qword ptr [rsp + 80]
	test r15, r15
	je .L2
	mov rbx, rax
	mov rdi, rbp
	mov r8, r14
	jmp .L5
.L6:
	mov rbp, r8
.L7:
	bts rdi, r14
	mov al, 1
	mov qword ptr [rsp + 32], rax
	mov r14, qword ptr [rsp + 8]
.L8:
	inc r14
	mov qword ptr [rsp + 8], r14
	mov r8, rbp
.L9:
	add rbx, 16
	dec r15
	je .L3
.L5:
	movzx eax, word ptr [rbx + 6]
	not eax
	test word ptr [r12 + 24], ax
	jne .L9
	movzx eax, word ptr [rbx + 8]
	not eax
	test word ptr [r12 + 26], ax
	jne .L9
	movzx eax, word ptr [rbx + 10]
	not eax
	test word ptr [r12 + 28], ax
	jne .L9
	movzx eax, word ptr [rbx + 12]
	not eax
	test word ptr [r12 + 30], ax
	jne .L9
	movzx eax, word ptr [rbx + 14]
	not eax
	test word ptr [r12 + 32], ax
	jne .L9
	movzx r14d, word ptr [rbx + 4]
	dec r14d
	cmp r14d, 290
	ja .L10
	mov eax, dword ptr [rbx]
	mov ebp, r14d
	shr ebp, 6
	shl rbp, 32
	or rbp, rax
	cmp rbp, r8
	je .L6
	cmp r8, -1
	je .L11
	mov rdx, qword ptr [rsp]
	mov rax, rdx
	shl rax, 4
	shr r8, 32
	mov rcx, qword ptr [rsp + 24]
	mov dword ptr [rsp + rax + 88], ecx
	mov byte ptr [rsp + rax + 92], r8b
	mov rcx, qword ptr [rsp + 32]
	mov byte ptr [rsp + rax + 93], cl
	mov qword ptr [rsp + rax + 96], rdi
	inc rdx
	mov qword ptr [rsp], rdx
	cmp rdx, 256
	jne .L11
	mov edx, 256
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 88]
	call qword ptr [rsp + 48]
	mov qword ptr [rsp], 0
.L11:
	movzx eax, word ptr [rbx + 2]
	movzx ecx, word ptr [rbx]
	shl ecx, 16
	or ecx, eax
	mov qword ptr [rsp + 24], rcx
	xor edi, edi
	jmp .L7
.L10:
	cmp r8, -1
	mov qword ptr [rsp + 56], rdi
	jne .L12
	mov r14, qword ptr [rsp + 8]
	mov rsi, qword ptr [rsp]
	jmp .L13
.L12:
	mov rsi, qword ptr [rsp]
	mov rax, rsi
	shl rax, 4
	shr r8, 32
	mov rcx, qword ptr [rsp + 24]
	mov dword ptr [rsp + rax + 88], ecx
	mov byte ptr [rsp + rax + 92], r8b
	mov rcx, qword ptr [rsp + 32]
	mov byte ptr [rsp + rax + 93], cl
	mov qword ptr [rsp + rax + 96], rdi
	inc rsi
	mov edx, 256
	cmp rsi, 256
	mov r14, qword ptr [rsp + 8]
	je .L14
.L13:
	mov rdx, rsi
	test rsi, rsi
	je .L15
.L14:
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 88]
	call qword ptr [rsp + 48]
.L15:
	mov rdi, qword ptr [rsp + 16]
	mov rsi, qword ptr [rsp + 64]
	mov rdx, rbx
	mov ecx, 1
	call hotloops::study::tid_batch::add_one_cold
	mov rbp, -1
	mov qword ptr [rsp], 0
	mov rdi, qword ptr [rsp + 56]
	jmp .L8
.L4:
	cmp r8, -1
	je .L16
	mov rsi, qword ptr [rsp]
	mov rax, rsi
	shl rax, 4
	shr r8, 32
	mov rcx, qword ptr [rsp + 24]
	mov dword ptr [rsp + rax + 88], ecx
	mov byte ptr [rsp + rax + 92], r8b
	mov rcx, qword ptr [rsp + 32]
	mov byte ptr [rsp + rax + 93], cl
	mov qword ptr [rsp + rax + 96], rdi
	inc rsi
	mov edx, 256
	cmp rsi, 256
	mov rax, qword ptr [rsp + 40]
	je .L17
	mov rdx, rsi
	test rsi, rsi
	je .L18
.L17:
	lea rsi, [rsp + 88]
	mov rdi, qword ptr [rsp + 16]
	call qword ptr [rax + 32]
.L18:
	mov rax, qword ptr [rsp + 8]
	jmp .L19
.L0:
	xor eax, eax
.L19:
	add rsp, 4184
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L16:
	mov rax, qword ptr [rsp + 40]
	mov rsi, qword ptr [rsp]
	mov rdx, rsi
	test rsi, rsi
	jne .L17
	jmp .L18
