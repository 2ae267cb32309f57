# hotloops asm snapshot of `read-stream/sync-per-page`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_read_stream_sync_per_page:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 152
	mov qword ptr [rsp + 56], r8
	mov qword ptr [rsp + 48], rcx
	mov r13d, dword ptr [rsi + 28]
	xor r12d, r12d
	mov eax, 0
	cmp r13d, 2
	jb .L0
	cmp qword ptr [rdx + 8], 0
	je .L1
	mov rbx, r9
	lea rax, [rdi + 24]
	mov qword ptr [rsp + 32], rax
	mov r15, qword ptr [rdx]
	mov eax, dword ptr [rsi + 24]
	mov dword ptr [rsp + 4], eax
	mov rax, qword ptr [rdi + 56]
	mov qword ptr [rsp + 40], rax
	mov rax, qword ptr [rdi + 96]
	mov qword ptr [rsp + 24], rax
	mov rax, qword ptr [rsi + 8]
	mov qword ptr [rsp + 16], rax
	mov rax, qword ptr [rsi + 16]
	mov qword ptr [rsp + 8], rax
	mov r14, qword ptr [r9 + 48]
	movups xmm0, xmmword ptr [r9]
	movaps xmmword ptr [rsp + 80], xmm0
	cmp r14, 1
	adc r14, 0
	movdqu xmm0, xmmword ptr [r9 + 24]
	movdqa xmmword ptr [rsp + 64], xmm0
	mov ebp, 1
	xor r12d, r12d
.L2:
	mov dword ptr [rsp + 144], ebp
	mov qword ptr [rsp + 128], 1
	mov qword ptr [rsp + 96], r15
	mov qword ptr [rsp + 104], 8192
	lea rax, [rsp + 112]
	pxor xmm0, xmm0
	movdqu xmmword ptr [rax], xmm0
	mov qword ptr [rsp + 136], 1
	mov edi, dword ptr [rsp + 4]
	lea rsi, [rsp + 96]
	xor edx, edx
	call hotloops::pg::read_stream::preadv_full
	mov r9, rdx
	test al, 1
	jne .L3
	movq xmm0, r9
	shufpd xmm0, xmmword ptr [rip + .L4], 2
	movdqa xmm1, xmmword ptr [rsp + 80]
	paddq xmm1, xmm0
	movdqa xmmword ptr [rsp + 80], xmm1
	movdqu xmmword ptr [rbx], xmm1
	movdqa xmm0, xmmword ptr [rsp + 64]
	pcmpeqd xmm1, xmm1
	psubq xmm0, xmm1
	movdqa xmmword ptr [rsp + 64], xmm0
	movdqu xmmword ptr [rbx + 24], xmm0
	mov qword ptr [rbx + 48], r14
	mov rdi, qword ptr [rsp + 40]
	mov rsi, qword ptr [rsp + 16]
	mov rdx, qword ptr [rsp + 8]
	mov ecx, ebp
	mov r8, r15
	call hotloops::study::read_stream::check_page_header
	test rax, rax
	jne .L5
	inc ebp
	mov rdi, r15
	mov rsi, qword ptr [rsp + 32]
	mov rdx, qword ptr [rsp + 24]
	mov rcx, qword ptr [rsp + 48]
	mov r8, qword ptr [rsp + 56]
	call qword ptr [rip + hl_read_stream_check_page@GOTPCREL]
	add r12, rax
	cmp r13d, ebp
	jne .L2
	xor eax, eax
	jmp .L0
.L3:
	lea rdx, [rip + .Lanon]
	mov ecx, 7
	mov rdi, qword ptr [rsp + 16]
	mov rsi, qword ptr [rsp + 8]
	mov r8d, ebp
	call hotloops::pg::read_stream::DataFile::context
.L5:
	mov r12, rax
	mov eax, 1
.L0:
	mov rdx, r12
	add rsp, 152
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L1:
	lea rdi, [rip + .Lanon]
	lea rdx, [rip + .Lanon]
	mov esi, 28
	call qword ptr [rip + core::panicking::panic@GOTPCREL]

hl_read_stream_check_page:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 40
	mov qword ptr [rsp + 16], rcx
	cmp word ptr [rdi + 14], 0
	je .L0
	movzx eax, word ptr [rdi + 16]
	test byte ptr [rdi + rax + 2], 2
	jne .L0
	movzx r13d, word ptr [rdi + rax]
	test r13, r13
	je .L0
	mov rbx, qword ptr [rsi + 24]
	mov rax, qword ptr [rsi + 32]
	mov qword ptr [rsp + 32], rax
	mov rax, qword ptr [r8 + 24]
	mov qword ptr [rsp + 8], rax
	test rbx, rbx
	mov qword ptr [rsp + 24], rdi
	je .L1
	mov r12, rdx
	mov ebp, 1
	xor r15d, r15d
	mov r14d, 1
.L2:
	cmp rbp, r13
	adc r14, 0
	lea rcx, [rbp - 1]
	imul rcx, qword ptr [rsp + 32]
	lea rax, [rdi + rcx]
	lea rsi, [rdi + rcx]
	add rsi, 24
	xor ecx, ecx
.L3:
	movzx edx, word ptr [rax + 2*rcx + 30]
	not edx
	test word ptr [r12 + 2*rcx], dx
	jne .L4
	inc rcx
	cmp rbx, rcx
	jne .L3
	mov edx, 1
	mov rdi, qword ptr [rsp + 16]
	mov ecx, 1
	call qword ptr [rsp + 8]
	inc r15
.L4:
	cmp rbp, r13
	jae .L5
	mov rbp, r14
	cmp r14, r13
	mov rdi, qword ptr [rsp + 24]
	jbe .L2
	jmp .L5
.L0:
	xor r15d, r15d
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
.L1:
	mov ebx, 1
	xor r15d, r15d
.L6:
	mov r14, rbx
	cmp rbx, r13
	adc rbx, 0
	lea rax, [r14 - 1]
	imul rax, qword ptr [rsp + 32]
	lea rsi, [rdi + rax]
	add rsi, 24
	mov edx, 1
	mov rdi, qword ptr [rsp + 16]
	mov ecx, 1
	call qword ptr [rsp + 8]
	inc r15
	cmp r14, r13
	jae .L5
	cmp rbx, r13
	mov rdi, qword ptr [rsp + 24]
	jbe .L6
	jmp .L5
