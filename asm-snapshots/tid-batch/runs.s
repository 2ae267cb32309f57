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
	sub rsp, 104
	mov qword ptr [rsp + 16], rsi
	mov r12, rdi
	mov rax, qword ptr [rdi + 80]
	mov qword ptr [rsp + 32], rax
	mov rbp, qword ptr [rdi + 128]
	lea rax, [rbp + 136]
	mov qword ptr [rsp + 72], rax
	mov rax, qword ptr [rdx + 24]
	mov qword ptr [rsp + 56], rax
	mov rax, qword ptr [rdx + 32]
	mov qword ptr [rsp + 24], rax
	xor r14d, r14d
	mov dword ptr [rsp + 4], 0
	xor ebx, ebx
	mov dword ptr [rsp], 0
	xor r13d, r13d
	mov qword ptr [rsp + 8], 0
	xor r15d, r15d
	mov qword ptr [rsp + 88], rdi
	mov qword ptr [rsp + 80], rbp
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
	mov dword ptr [rsp], r8d
	mov dword ptr [rsp + 4], edi
	mov qword ptr [rsp + 8], rsi
	mov eax, r9d
	sub eax, r10d
	inc eax
	cdqe
	mov r15, qword ptr [rsp + 96]
	add r15, rax
	inc r9d
	mov rbp, qword ptr [rsp + 80]
	mov dword ptr [rbp + 132], r9d
	mov r12, qword ptr [rsp + 88]
.L5:
	mov rdi, r12
	call hotloops::pg::nbtscan::bt_steppage_buf
.L3:
	test al, al
	je .L1
	movsxd r10, dword ptr [rbp + 132]
	movsxd r9, dword ptr [rbp + 128]
	cmp r9d, r10d
	jl .L5
	mov eax, dword ptr [rbp + 100]
	lea ecx, [rax - 1]
	cmp ecx, -3
	mov edx, 64
	mov rsi, qword ptr [rsp + 8]
	mov edi, dword ptr [rsp + 4]
	mov r8d, dword ptr [rsp]
	ja .L6
	mov rcx, qword ptr [rsp + 32]
	cmp qword ptr [rcx + 16], rax
	jb .L6
	mov rcx, qword ptr [rsp + 32]
	mov rcx, qword ptr [rcx + 8]
	mov rax, qword ptr [rcx + 8*rax - 8]
	mov ecx, 448
	add rax, rcx
	xor ecx, ecx
.L7:
	prefetcht1 byte ptr [rax + rcx - 448]
	prefetcht1 byte ptr [rax + rcx - 384]
	prefetcht1 byte ptr [rax + rcx - 320]
	prefetcht1 byte ptr [rax + rcx - 256]
	prefetcht1 byte ptr [rax + rcx - 192]
	prefetcht1 byte ptr [rax + rcx - 128]
	prefetcht1 byte ptr [rax + rcx - 64]
	prefetcht1 byte ptr [rax + rcx]
	add rcx, 512
	cmp rcx, 8192
	jne .L7
.L6:
	mov qword ptr [rsp + 96], r15
	lea rax, [r10 + r10]
	lea rbp, [rax + 4*rax]
	lea rax, [r9 + r9]
	lea rcx, [rax + 4*rax]
	add rcx, 10
	cmp rbp, rcx
	je .L4
	lea rax, [rax + 4*rax]
	mov rcx, qword ptr [rsp + 72]
	lea r15, [rcx + rax]
	lea r11, [rcx + rax]
	add r11, 10
	add rbp, rcx
	mov qword ptr [rsp + 48], r9
	mov qword ptr [rsp + 40], r10
	jmp .L8
.L9:
	mov rbp, rax
.L10:
	cmp rbp, r11
	je .L4
.L8:
	mov ecx, dword ptr [rbp]
	movzx r12d, word ptr [rbp + 4]
	cmp ecx, r8d
	jne .L11
	mov eax, r12d
	sub eax, r14d
	cmp eax, ebx
	jae .L11
	bts r13, rax
	lea rax, [rbp + 10]
	cmp rbp, r15
	jne .L12
	jmp .L9
.L11:
	dec r12d
	cmp r12d, 290
	ja .L13
	test ebx, ebx
	mov dword ptr [rsp + 8], ecx
	je .L14
	mov rax, rsi
	shl rax, 4
	shr r14d, 6
	mov dword ptr [rsp + rax + 104], edi
	mov byte ptr [rsp + rax + 108], r14b
	mov byte ptr [rsp + rax + 109], 0
	mov qword ptr [rsp + rax + 112], r13
	inc rsi
	cmp rsi, 256
	jne .L14
	mov edx, 256
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 104]
	mov rbx, r11
	call qword ptr [rsp + 24]
	mov r11, rbx
	mov r10, qword ptr [rsp + 40]
	mov r9, qword ptr [rsp + 48]
	mov edx, 64
	xor esi, esi
.L14:
	mov r14d, r12d
	and r14d, 448
	mov ebx, 291
	sub ebx, r14d
	inc r14d
	cmp ebx, 64
	cmovae ebx, edx
	movzx eax, word ptr [rbp + 2]
	movzx edi, word ptr [rbp]
	shl edi, 16
	or edi, eax
	mov r13d, 1
	mov ecx, r12d
	shl r13, cl
	mov r8d, dword ptr [rsp + 8]
	lea rax, [rbp + 10]
	cmp rbp, r15
	je .L9
.L12:
	cmp dword ptr [rax], r8d
	jne .L9
	movzx ecx, word ptr [rax + 4]
	sub ecx, r14d
	cmp ecx, ebx
	jae .L9
	bts r13, rcx
	lea rbp, [rax + 10]
	cmp rax, r15
	mov rax, rbp
	jne .L12
	jmp .L10
.L13:
	test ebx, ebx
	mov dword ptr [rsp], r8d
	mov qword ptr [rsp + 64], r11
	jne .L15
	mov r12d, edi
	jmp .L16
.L15:
	mov rax, rsi
	shl rax, 4
	mov ecx, r14d
	shr ecx, 6
	mov r12d, edi
	mov dword ptr [rsp + rax + 104], edi
	mov byte ptr [rsp + rax + 108], cl
	mov byte ptr [rsp + rax + 109], 0
	mov qword ptr [rsp + rax + 112], r13
	inc rsi
	mov edx, 256
	cmp rsi, 256
	je .L17
.L16:
	mov rdx, rsi
	test rsi, rsi
	je .L18
.L17:
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 104]
	call qword ptr [rsp + 24]
.L18:
	xor ebx, ebx
	mov rdi, qword ptr [rsp + 16]
	mov rsi, qword ptr [rsp + 56]
	mov rdx, rbp
	xor ecx, ecx
	call hotloops::study::tid_batch::runs::add_one_cold
	xor esi, esi
	mov edx, 64
	mov edi, r12d
	mov r8d, dword ptr [rsp]
	mov r9, qword ptr [rsp + 48]
	mov r10, qword ptr [rsp + 40]
	mov r11, qword ptr [rsp + 64]
	lea rax, [rbp + 10]
	cmp rbp, r15
	jne .L12
	jmp .L9
.L2:
	test ebx, ebx
	je .L19
	mov rcx, qword ptr [rsp + 8]
	mov rax, rcx
	shl rax, 4
	shr r14d, 6
	mov edx, dword ptr [rsp + 4]
	mov dword ptr [rsp + rax + 104], edx
	mov byte ptr [rsp + rax + 108], r14b
	mov byte ptr [rsp + rax + 109], 0
	mov qword ptr [rsp + rax + 112], r13
	inc rcx
	mov edx, 256
	cmp rcx, 256
	je .L20
	mov rdx, rcx
	test rcx, rcx
	je .L21
.L20:
	lea rsi, [rsp + 104]
	mov rdi, qword ptr [rsp + 16]
	call qword ptr [rsp + 24]
.L21:
	mov rax, r15
	add rsp, 4200
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L19:
	mov rcx, qword ptr [rsp + 8]
	mov rdx, rcx
	test rcx, rcx
	jne .L20
	jmp .L21

hl_tid_batch_runs_pages:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 4096
	mov qword ptr [rsp], 0
	sub rsp, 88
	mov r14, rcx
	mov qword ptr [rsp + 16], rdx
	mov r12, rdi
	call hotloops::pg::pagedam::am_first
	xor esi, esi
	test al, al
	je .L0
	mov rax, qword ptr [r14 + 24]
	mov qword ptr [rsp + 64], rax
	mov rax, qword ptr [r14 + 32]
	mov qword ptr [rsp + 32], rax
	mov edx, 64
	xor r8d, r8d
	xor r14d, r14d
	xor r9d, r9d
	xor r15d, r15d
	xor edi, edi
	xor r13d, r13d
	mov qword ptr [rsp + 24], 0
	mov qword ptr [rsp + 40], r12
	jmp .L1
.L2:
	mov dword ptr [rsp + 8], r9d
	mov dword ptr [rsp + 12], r8d
	mov rbx, rdi
	mov rbp, rsi
.L3:
	mov rdi, r12
	call hotloops::pg::pagedam::am_steppage
	test al, al
	mov edx, 64
	mov rsi, rbp
	mov rdi, rbx
	mov r8d, dword ptr [rsp + 12]
	mov r9d, dword ptr [rsp + 8]
	je .L4
.L1:
	movsxd rax, dword ptr [r12]
	movsxd rcx, dword ptr [r12 + 4]
	cmp ecx, eax
	jl .L2
	mov qword ptr [rsp + 72], rax
	lea rbp, [8*rax]
	lea rax, [8*rcx + 8]
	cmp rbp, rax
	mov qword ptr [rsp + 80], rcx
	jne .L5
.L6:
	mov dword ptr [rsp + 8], r9d
	mov dword ptr [rsp + 12], r8d
	mov rbx, rdi
	mov rbp, rsi
	mov rcx, qword ptr [rsp + 80]
	mov eax, ecx
	sub eax, dword ptr [rsp + 72]
	inc eax
	cdqe
	add qword ptr [rsp + 24], rax
	inc ecx
	mov r12, qword ptr [rsp + 40]
	mov dword ptr [r12], ecx
	jmp .L3
.L5:
	mov rax, qword ptr [rsp + 40]
	mov rax, qword ptr [rax + 16]
	lea rbx, [rax + 8*rcx]
	lea r10, [rax + 8*rcx]
	add r10, 8
	add rbp, rax
	jmp .L7
.L8:
	mov r13d, r11d
.L9:
	and r13b, 1
	mov rbp, rcx
	cmp rcx, r10
	je .L6
.L7:
	movzx r11d, byte ptr [rbp + 6]
	mov ecx, dword ptr [rbp]
	movzx r12d, word ptr [rbp + 4]
	cmp ecx, r9d
	jne .L10
	mov eax, r12d
	sub eax, esi
	cmp eax, r14d
	jae .L10
	bts r15, rax
	or r11b, r13b
	lea rcx, [rbp + 8]
	cmp rbp, rbx
	jne .L11
	jmp .L8
.L10:
	dec r12d
	cmp r12d, 290
	ja .L12
	test r14d, r14d
	mov dword ptr [rsp + 12], ecx
	je .L13
	mov rax, rdi
	shl rax, 4
	shr esi, 6
	mov dword ptr [rsp + rax + 88], r8d
	mov byte ptr [rsp + rax + 92], sil
	mov byte ptr [rsp + rax + 93], r13b
	mov qword ptr [rsp + rax + 96], r15
	inc rdi
	cmp rdi, 256
	jne .L13
	mov edx, 256
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 88]
	mov r14, r10
	mov r15d, r11d
	call qword ptr [rsp + 32]
	mov r11d, r15d
	mov r10, r14
	mov edx, 64
	xor edi, edi
.L13:
	mov esi, r12d
	and esi, 448
	mov r14d, 291
	sub r14d, esi
	inc esi
	cmp r14d, 64
	cmovae r14d, edx
	movzx eax, word ptr [rbp + 2]
	movzx r8d, word ptr [rbp]
	shl r8d, 16
	or r8d, eax
	mov r15d, 1
	mov ecx, r12d
	shl r15, cl
	mov r9d, dword ptr [rsp + 12]
	lea rcx, [rbp + 8]
	cmp rbp, rbx
	je .L8
.L11:
	mov rax, rcx
	mov r13d, r11d
.L14:
	cmp dword ptr [rax], r9d
	jne .L15
	movzx ecx, word ptr [rax + 4]
	sub ecx, esi
	cmp ecx, r14d
	jae .L15
	or r13b, byte ptr [rax + 6]
	bts r15, rcx
	lea rcx, [rax + 8]
	cmp rax, rbx
	mov rax, rcx
	jne .L14
	jmp .L9
.L15:
	mov rcx, rax
	jmp .L9
.L12:
	test r14d, r14d
	mov qword ptr [rsp + 56], rsi
	mov dword ptr [rsp + 8], r9d
	mov qword ptr [rsp + 48], r10
	jne .L16
	mov r12d, r8d
	jmp .L17
.L16:
	mov rax, rdi
	shl rax, 4
	mov ecx, esi
	shr ecx, 6
	mov r12d, r8d
	mov dword ptr [rsp + rax + 88], r8d
	mov byte ptr [rsp + rax + 92], cl
	mov byte ptr [rsp + rax + 93], r13b
	mov qword ptr [rsp + rax + 96], r15
	inc rdi
	mov edx, 256
	cmp rdi, 256
	je .L18
.L17:
	mov rdx, rdi
	test rdi, rdi
	je .L19
.L18:
	mov rdi, qword ptr [rsp + 16]
	lea rsi, [rsp + 88]
	mov r14d, r11d
	call qword ptr [rsp + 32]
	mov r11d, r14d
.L19:
	movzx ecx, r11b
	mov rdi, qword ptr [rsp + 16]
	mov rsi, qword ptr [rsp + 64]
	mov rdx, rbp
	call hotloops::study::tid_batch::runs::add_one_cold
	xor r14d, r14d
	xor edi, edi
	mov r11d, r13d
	mov edx, 64
	mov rsi, qword ptr [rsp + 56]
	mov r8d, r12d
	mov r9d, dword ptr [rsp + 8]
	mov r10, qword ptr [rsp + 48]
	lea rcx, [rbp + 8]
	cmp rbp, rbx
	jne .L11
	jmp .L8
.L0:
	xor eax, eax
	jmp .L20
.L4:
	test r14d, r14d
	je .L21
	mov rax, rdi
	shl rax, 4
	shr esi, 6
	mov dword ptr [rsp + rax + 88], r8d
	mov byte ptr [rsp + rax + 92], sil
	mov byte ptr [rsp + rax + 93], r13b
	mov qword ptr [rsp + rax + 96], r15
	inc rdi
	mov edx, 256
	cmp rdi, 256
	je .L22
.L21:
	mov rdx, rdi
	test rdi, rdi
	je .L23
.L22:
	lea rsi, [rsp + 88]
	mov rdi, qword ptr [rsp + 16]
	call qword ptr [rsp + 32]
.L23:
	mov rax, qword ptr [rsp + 24]
.L20:
	add rsp, 4184
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
	sub rsp, 104
	mov r8, rdx
	mov qword ptr [rsp + 40], rsi
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
	mov qword ptr [rsp + 56], 0
	add rsi, rdx
	mov qword ptr [rsp + 88], rsi
	je .L0
	mov r12, rdi
	mov rax, qword ptr [r8 + 24]
	mov qword ptr [rsp + 80], rax
	mov qword ptr [rsp + 64], r8
	mov rax, qword ptr [r8 + 32]
	mov qword ptr [rsp + 72], rax
	xor r14d, r14d
	xor r13d, r13d
	mov qword ptr [rsp + 32], 0
	mov qword ptr [rsp + 8], 0
	mov qword ptr [rsp + 24], 0
	mov dword ptr [rsp], 0
	mov qword ptr [rsp + 16], 0
	mov dword ptr [rsp + 4], 0
	jmp .L1
.L2:
	inc r13
	cmp r13, qword ptr [rsp + 88]
	je .L3
.L1:
	mov rdi, qword ptr [r12 + 8]
	mov rsi, qword ptr [r12 + 16]
	mov rdx, r13
	lea rcx, [rsp + 96]
	call hotloops::pg::bloom::bl_read_page
	mov r15, qword ptr [rsp + 96]
	test r15, r15
	je .L2
	mov rbx, rax
	jmp .L4
.L5:
	mov eax, r14d
	and eax, 448
	mov ecx, 291
	sub ecx, eax
	inc eax
	mov dword ptr [rsp], eax
	cmp ecx, 64
	mov eax, 64
	cmovae ecx, eax
	mov qword ptr [rsp + 16], rcx
	movzx eax, word ptr [rbx + 2]
	movzx ecx, word ptr [rbx]
	shl ecx, 16
	or ecx, eax
	mov dword ptr [rsp + 4], ecx
	mov eax, 1
	mov ecx, r14d
	shl rax, cl
	mov qword ptr [rsp + 24], rax
	mov al, 1
	mov qword ptr [rsp + 32], rax
.L6:
	mov r14, qword ptr [rsp + 48]
.L7:
	inc r14
	mov eax, ebp
	mov qword ptr [rsp + 56], rax
.L8:
	add rbx, 16
	dec r15
	je .L2
.L4:
	movzx eax, word ptr [rbx + 6]
	not eax
	test word ptr [r12 + 24], ax
	jne .L8
	movzx eax, word ptr [rbx + 8]
	not eax
	test word ptr [r12 + 26], ax
	jne .L8
	movzx eax, word ptr [rbx + 10]
	not eax
	test word ptr [r12 + 28], ax
	jne .L8
	movzx eax, word ptr [rbx + 12]
	not eax
	test word ptr [r12 + 30], ax
	jne .L8
	movzx eax, word ptr [rbx + 14]
	not eax
	test word ptr [r12 + 32], ax
	jne .L8
	mov qword ptr [rsp + 48], r14
	mov ebp, dword ptr [rbx]
	movzx r14d, word ptr [rbx + 4]
	cmp ebp, dword ptr [rsp + 56]
	jne .L9
	mov eax, r14d
	sub eax, dword ptr [rsp]
	cmp eax, dword ptr [rsp + 16]
	jae .L9
	mov rcx, qword ptr [rsp + 24]
	bts rcx, rax
	mov qword ptr [rsp + 24], rcx
	mov al, 1
	mov qword ptr [rsp + 32], rax
	mov rax, qword ptr [rsp + 56]
	mov ebp, eax
	jmp .L6
.L9:
	dec r14d
	cmp r14d, 290
	ja .L10
	cmp dword ptr [rsp + 16], 0
	je .L5
	mov rcx, qword ptr [rsp + 8]
	mov rax, rcx
	shl rax, 4
	mov edx, dword ptr [rsp]
	shr edx, 6
	mov esi, dword ptr [rsp + 4]
	mov dword ptr [rsp + rax + 104], esi
	mov byte ptr [rsp + rax + 108], dl
	mov rdx, qword ptr [rsp + 32]
	mov byte ptr [rsp + rax + 109], dl
	mov rdx, qword ptr [rsp + 24]
	mov qword ptr [rsp + rax + 112], rdx
	inc rcx
	mov qword ptr [rsp + 8], rcx
	cmp rcx, 256
	jne .L5
	mov edx, 256
	mov rdi, qword ptr [rsp + 40]
	lea rsi, [rsp + 104]
	call qword ptr [rsp + 72]
	mov qword ptr [rsp + 8], 0
	jmp .L5
.L10:
	cmp dword ptr [rsp + 16], 0
	jne .L11
	mov r14, qword ptr [rsp + 48]
	mov rsi, qword ptr [rsp + 8]
	jmp .L12
.L11:
	mov rsi, qword ptr [rsp + 8]
	mov rax, rsi
	shl rax, 4
	mov ecx, dword ptr [rsp]
	shr ecx, 6
	mov edx, dword ptr [rsp + 4]
	mov dword ptr [rsp + rax + 104], edx
	mov byte ptr [rsp + rax + 108], cl
	mov rcx, qword ptr [rsp + 32]
	mov byte ptr [rsp + rax + 109], cl
	mov rcx, qword ptr [rsp + 24]
	mov qword ptr [rsp + rax + 112], rcx
	inc rsi
	mov edx, 256
	cmp rsi, 256
	mov r14, qword ptr [rsp + 48]
	je .L13
.L12:
	mov rdx, rsi
	test rsi, rsi
	je .L14
.L13:
	mov rdi, qword ptr [rsp + 40]
	lea rsi, [rsp + 104]
	call qword ptr [rsp + 72]
.L14:
	mov rdi, qword ptr [rsp + 40]
	mov rsi, qword ptr [rsp + 80]
	mov rdx, rbx
	mov ecx, 1
	call hotloops::study::tid_batch::runs::add_one_cold
	mov qword ptr [rsp + 16], 0
	mov rax, qword ptr [rsp + 56]
	mov ebp, eax
	mov qword ptr [rsp + 8], 0
	jmp .L7
.L3:
	cmp dword ptr [rsp + 16], 0
	je .L15
	mov edx, dword ptr [rsp]
	shr edx, 6
	mov rcx, qword ptr [rsp + 8]
	mov rax, rcx
	shl rax, 4
	mov esi, dword ptr [rsp + 4]
	mov dword ptr [rsp + rax + 104], esi
	mov byte ptr [rsp + rax + 108], dl
	mov rdx, qword ptr [rsp + 32]
	mov byte ptr [rsp + rax + 109], dl
	mov rdx, qword ptr [rsp + 24]
	mov qword ptr [rsp + rax + 112], rdx
	inc rcx
	mov edx, 256
	cmp rcx, 256
	mov rax, qword ptr [rsp + 64]
	je .L16
	mov rdx, rcx
	test rcx, rcx
	jne .L16
	jmp .L17
.L0:
	xor r14d, r14d
	jmp .L17
.L15:
	mov rax, qword ptr [rsp + 64]
	mov rcx, qword ptr [rsp + 8]
	mov rdx, rcx
	test rcx, rcx
	je .L17
.L16:
	lea rsi, [rsp + 104]
	mov rdi, qword ptr [rsp + 40]
	call qword ptr [rax + 32]
.L17:
	mov rax, r14
	add rsp, 4200
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
