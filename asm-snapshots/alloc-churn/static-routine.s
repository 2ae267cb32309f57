# hotloops asm snapshot of `alloc-churn/static-routine`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_static_routine:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 136
	mov qword ptr [rsp], rdi
	mov rbx, qword ptr [rdi + 296]
	mov r14, qword ptr [rbx]
	test r14, r14
	je .L0
	mov r15, qword ptr [rip + mi_free@GOTPCREL]
	mov r12, qword ptr [rip + free@GOTPCREL]
	jmp .L1
.L2:
	lea rax, [rdi + 40]
	mov qword ptr [rdi + 24], rax
	xorps xmm0, xmm0
	movups xmmword ptr [rdi + 8], xmm0
.L3:
	test r14, r14
	je .L0
.L1:
	mov rdi, r14
	mov r14, qword ptr [r14 + 16]
	cmp rdi, qword ptr [rbx + 128]
	je .L2
	mov rax, rdi
	sub rax, qword ptr [rdi + 32]
	add qword ptr [rbx + 136], rax
	inc qword ptr [rbx + 176]
	cmp byte ptr [rbx + 144], 0
	je .L4
	call r15
	jmp .L3
.L4:
	call r12
	jmp .L3
.L0:
	movabs r15, -3750763034362895579
	mov rax, qword ptr [rbx + 96]
	mov rcx, qword ptr [rbx + 128]
	mov qword ptr [rbx], rcx
	xorps xmm0, xmm0
	movups xmmword ptr [rbx + 8], xmm0
	movups xmmword ptr [rbx + 24], xmm0
	movups xmmword ptr [rbx + 40], xmm0
	movups xmmword ptr [rbx + 56], xmm0
	movups xmmword ptr [rbx + 72], xmm0
	mov qword ptr [rbx + 88], 0
	mov qword ptr [rbx + 112], rax
	mov r14, qword ptr [rsp]
	mov rbx, qword ptr [r14 + 296]
	lea rdi, [rip + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@TLSLD]
	call __tls_get_addr@PLT
	mov rdi, r14
	lea rcx, [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov rdx, qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 128], rdx
	mov qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF], rbx
	mov rax, qword ptr [r14 + 16]
	test rax, rax
	mov qword ptr [rsp + 104], rcx
	je .L5
	mov rcx, qword ptr [rdi + 8]
	mov qword ptr [rsp + 40], rcx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 32], rax
	lea rbp, [rdi + 64]
	lea rax, [rdi + 96]
	mov qword ptr [rsp + 16], rax
	lea rax, [rdi + 128]
	mov qword ptr [rsp + 24], rax
	lea rax, [rdi + 160]
	mov qword ptr [rsp + 120], rax
	lea rax, [rdi + 192]
	mov qword ptr [rsp + 112], rax
	lea rax, [rdi + 224]
	mov qword ptr [rsp + 96], rax
	lea rax, [rdi + 256]
	mov qword ptr [rsp + 88], rax
	xor r13d, r13d
	mov rbx, r15
	mov qword ptr [rsp + 56], rbp
.L6:
	mov rax, qword ptr [rsp + 40]
	mov edx, dword ptr [rax + r13 + 20]
	mov r14, rbp
	cmp dword ptr [rdi + 88], edx
	je .L7
	mov r14, qword ptr [rsp + 16]
	cmp dword ptr [rdi + 120], edx
	je .L7
	mov r14, qword ptr [rsp + 24]
	cmp dword ptr [rdi + 152], edx
	je .L7
	mov r14, qword ptr [rsp + 120]
	cmp dword ptr [rdi + 184], edx
	je .L7
	mov r14, qword ptr [rsp + 112]
	cmp dword ptr [rdi + 216], edx
	je .L7
	mov r14, qword ptr [rsp + 96]
	cmp dword ptr [rdi + 248], edx
	je .L7
	mov r14, qword ptr [rsp + 88]
	cmp dword ptr [rdi + 280], edx
	jne .L8
.L7:
	cmp byte ptr [r14 + 28], 105
	jne .L9
	mov dword ptr [rsp + 8], edx
	mov rax, qword ptr [r14 + 16]
	test rax, rax
	je .L10
	mov r15, r8
	call rax
	mov esi, 3
	test rax, rax
	je .L11
	cmp dword ptr [rax], 430
	mov rcx, qword ptr [rsp]
	mov edx, dword ptr [rsp + 8]
	jne .L12
	movzx esi, byte ptr [rax + 10]
	movzx r12d, byte ptr [rax + 15]
	movzx r14d, word ptr [rax + 6]
	cmp dword ptr [rcx + 88], edx
	je .L13
	mov rbp, qword ptr [rsp + 16]
	cmp dword ptr [rcx + 120], edx
	je .L13
	mov rbp, qword ptr [rsp + 24]
	cmp dword ptr [rcx + 152], edx
	je .L13
	mov rbp, qword ptr [rsp + 120]
	cmp dword ptr [rcx + 184], edx
	je .L13
	mov rbp, qword ptr [rsp + 112]
	cmp dword ptr [rcx + 216], edx
	je .L13
	mov rbp, qword ptr [rsp + 96]
	cmp dword ptr [rcx + 248], edx
	je .L13
	mov rbp, qword ptr [rsp + 88]
	cmp dword ptr [rcx + 280], edx
	jne .L14
.L13:
	cmp byte ptr [rbp + 28], 105
	jne .L15
	mov qword ptr [rsp + 48], rax
	mov rax, qword ptr [rbp + 16]
	test rax, rax
	je .L16
	mov r15, r13
	mov r13, rsi
	call rax
	mov r8, rax
	mov eax, 3
	test r8, r8
	je .L17
	cmp dword ptr [r8], 430
	mov rdi, qword ptr [rsp]
	jne .L17
	shl r14d, 8
	lea rax, [2*r12]
	add rax, r13
	or rax, r14
	xor rax, rbx
	movabs rsi, 1099511628211
	imul rax, rsi
	movzx ecx, byte ptr [r8 + 13]
	movzx edx, byte ptr [r8 + 19]
	lea rcx, [rcx + 2*rdx]
	movzx ebx, word ptr [r8 + 4]
	shl ebx, 8
	or rbx, rcx
	xor rbx, rax
	imul rbx, rsi
	mov r13, r15
	add r13, 24
	cmp qword ptr [rsp + 32], r13
	mov rbp, qword ptr [rsp + 56]
	jne .L6
	mov rcx, rdi
	mov rdi, qword ptr [rdi + 8]
	mov rax, qword ptr [rcx + 16]
	lea r13, [rcx + 304]
	mov rcx, qword ptr [rcx + 304]
	mov rdx, qword ptr [rsp + 104]
	mov qword ptr [rdx], rcx
	test rax, rax
	je .L18
	shl rax, 3
	lea r14, [rax + 2*rax]
	xor r15d, r15d
.L19:
	mov rax, qword ptr [rdi]
	mov rax, qword ptr [rax + 152]
	test rax, rax
	je .L20
	lea r12, [rdi + 24]
	mov esi, 1
	xor edx, edx
	call rax
	mov byte ptr [rax + 48], 1
	mov rcx, qword ptr [rsp]
	mov rcx, qword ptr [rcx + 32]
	mov qword ptr [rcx + r15], rax
	add r15, 8
	mov rdi, r12
	add r14, -24
	jne .L19
	mov rcx, qword ptr [rsp]
	mov rax, qword ptr [rcx + 8]
	mov qword ptr [rsp + 16], rax
	mov rax, qword ptr [rcx + 16]
	lea rdx, [rcx + 328]
	mov qword ptr [rsp + 40], rdx
	mov qword ptr [rcx + 328], 0
	lea rdx, [rcx + 336]
	mov qword ptr [rsp + 48], rdx
	movabs rdx, -3750763034362895579
	mov qword ptr [rcx + 336], rdx
	mov qword ptr [rcx + 344], 0
	test rax, rax
	je .L21
	mov qword ptr [rsp + 24], r13
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 32], rax
	lea rax, [rcx + 312]
	mov qword ptr [rsp + 56], rax
	xor r15d, r15d
	xor r14d, r14d
	xor edx, edx
	xor ebp, ebp
.L22:
	mov rax, qword ptr [rsp + 16]
	mov rcx, qword ptr [rax + r14]
	mov rax, qword ptr [rcx + 160]
	test rax, rax
	je .L23
	mov r12, qword ptr [rcx + 176]
	test r12, r12
	je .L23
	mov rcx, qword ptr [rsp]
	mov rcx, qword ptr [rcx + 32]
	mov r13, qword ptr [rcx + 8*rbp]
	inc rbp
	mov rdi, r13
	mov rsi, qword ptr [rsp + 56]
	mov qword ptr [rsp + 8], rdx
	mov edx, 1
	xor ecx, ecx
	xor r8d, r8d
	call rax
	mov rdi, r13
	mov rsi, qword ptr [rsp + 40]
	call r12
	mov rdx, qword ptr [rsp + 8]
	add rdx, rax
	xor r15, rax
	movabs rax, 1099511628211
	imul r15, rax
	add r14, 24
	cmp qword ptr [rsp + 32], r14
	jne .L22
	mov rcx, qword ptr [rsp]
	mov rax, qword ptr [rcx + 16]
	xor rbx, rdx
	test rax, rax
	je .L24
	mov rdx, qword ptr [rcx + 8]
	mov qword ptr [rsp + 16], rdx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 32], rax
	xor ebp, ebp
	xor r14d, r14d
	jmp .L25
.L26:
	shl r13, 32
	add r13, qword ptr [rsp + 8]
	xor r15, r13
	movabs rax, 1099511628211
	imul r15, rax
	mov rdi, r12
	mov rax, qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	call rax
	add rbp, 24
	inc r14
	cmp qword ptr [rsp + 32], rbp
	mov rcx, qword ptr [rsp]
	je .L24
.L25:
	mov rax, qword ptr [rsp + 16]
	mov rax, qword ptr [rax + rbp]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L27
	mov rcx, qword ptr [rcx + 32]
	mov r12, qword ptr [rcx + 8*r14]
	mov rcx, qword ptr [r12 + 56]
	mov r13d, dword ptr [rcx + 4]
	mov ecx, dword ptr [rcx + 92]
	mov qword ptr [rsp + 8], rcx
	mov rdi, r12
	call rax
	mov rdi, qword ptr [r12 + 32]
	test rdi, rdi
	je .L26
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L26
.L5:
	lea r13, [rdi + 304]
	mov rax, qword ptr [rdi + 304]
	mov qword ptr [rcx], rax
	mov rbx, r15
	jmp .L28
.L18:
	mov rdi, qword ptr [rsp]
	movabs r15, -3750763034362895579
.L28:
	lea rax, [rdi + 328]
	mov qword ptr [rsp + 40], rax
	mov qword ptr [rdi + 328], 0
	lea rax, [rdi + 336]
	mov qword ptr [rsp + 48], rax
	mov qword ptr [rdi + 336], r15
	mov qword ptr [rdi + 344], 0
.L21:
	xor r15d, r15d
	mov r14, qword ptr [r13]
	mov r12, qword ptr [r14]
	test r12, r12
	jne .L29
	jmp .L30
.L24:
	mov r13, qword ptr [rsp + 24]
	mov r14, qword ptr [r13]
	mov r12, qword ptr [r14]
	test r12, r12
	je .L30
.L29:
	mov r13, qword ptr [rip + mi_free@GOTPCREL]
	mov rbp, qword ptr [rip + free@GOTPCREL]
	jmp .L31
.L32:
	lea rax, [rdi + 40]
	mov qword ptr [rdi + 24], rax
	xorps xmm0, xmm0
	movups xmmword ptr [rdi + 8], xmm0
.L33:
	test r12, r12
	je .L30
.L31:
	mov rdi, r12
	mov r12, qword ptr [r12 + 16]
	cmp rdi, qword ptr [r14 + 128]
	je .L32
	mov rax, rdi
	sub rax, qword ptr [rdi + 32]
	add qword ptr [r14 + 136], rax
	inc qword ptr [r14 + 176]
	cmp byte ptr [r14 + 144], 0
	je .L34
	call r13
	jmp .L33
.L34:
	call rbp
	jmp .L33
.L30:
	mov rax, qword ptr [r14 + 96]
	mov rcx, qword ptr [r14 + 128]
	mov qword ptr [r14], rcx
	xorps xmm0, xmm0
	movups xmmword ptr [r14 + 8], xmm0
	movups xmmword ptr [r14 + 24], xmm0
	movups xmmword ptr [r14 + 40], xmm0
	movups xmmword ptr [r14 + 56], xmm0
	movups xmmword ptr [r14 + 72], xmm0
	mov qword ptr [r14 + 88], 0
	mov qword ptr [r14 + 112], rax
	mov rax, qword ptr [rsp + 104]
	mov rcx, qword ptr [rsp + 128]
	mov qword ptr [rax], rcx
	mov rax, qword ptr [rsp + 40]
	mov rax, qword ptr [rax]
	rol rax, 32
	movabs rcx, 1099511628211
	imul rbx, rcx
	mov rdx, qword ptr [rsp + 48]
	xor rbx, qword ptr [rdx]
	xor rbx, rax
	imul rbx, rcx
	xor rbx, r15
	imul rbx, rcx
	mov rax, rbx
	add rsp, 136
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L23:
	lea rdi, [rip + .Lanon]
	mov esi, 20
	call hotloops::study::alloc_churn::missing_callback
.L20:
	lea rdi, [rip + .Lanon]
	mov esi, 11
	call hotloops::study::alloc_churn::missing_callback
.L27:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L15:
	mov eax, 1
	jmp .L17
.L11:
	mov edx, dword ptr [rsp + 8]
	jmp .L12
.L10:
	mov esi, 2
	mov edx, dword ptr [rsp + 8]
	jmp .L12
.L16:
	mov eax, 2
.L17:
	mov r15, qword ptr [rbp]
	mov rcx, qword ptr [rbp + 8]
.L35:
	mov dword ptr [rsp + 64], eax
	mov eax, dword ptr [rsp + 8]
	mov dword ptr [rsp + 68], eax
	mov qword ptr [rsp + 72], r15
	mov qword ptr [rsp + 80], rcx
	lea rdi, [rsp + 64]
	call hotloops::study::alloc_churn::lookup_failed
.L9:
	mov esi, 1
.L12:
	mov rax, qword ptr [r14]
	mov rcx, qword ptr [r14 + 8]
.L36:
	mov dword ptr [rsp + 64], esi
	mov dword ptr [rsp + 68], edx
	mov qword ptr [rsp + 72], rax
	mov qword ptr [rsp + 80], rcx
	lea rdi, [rsp + 64]
	call hotloops::study::alloc_churn::lookup_failed
.L8:
	xor esi, esi
	mov rax, qword ptr [rsp + 48]
	jmp .L36
.L14:
	xor eax, eax
	jmp .L35

hl_bthandler_static:
	mov rax, qword ptr [rip + hotloops::pg::amapi::BTREE_AM_ROUTINE@GOTPCREL]
	ret
