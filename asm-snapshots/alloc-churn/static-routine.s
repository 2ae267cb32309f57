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
	mov rsi, qword ptr [rdi + 304]
	cmp rsi, 1
	jne .L0
	mov qword ptr [rsp], rdi
	mov rbx, qword ptr [rdi + 288]
	mov r14, qword ptr [rbx]
	test r14, r14
	je .L1
	mov r15, qword ptr [rip + mi_free@GOTPCREL]
	mov r12, qword ptr [rip + free@GOTPCREL]
	jmp .L2
.L3:
	lea rax, [rdi + 40]
	mov qword ptr [rdi + 24], rax
	xorps xmm0, xmm0
	movups xmmword ptr [rdi + 8], xmm0
.L4:
	test r14, r14
	je .L1
.L2:
	mov rdi, r14
	mov r14, qword ptr [r14 + 16]
	cmp rdi, qword ptr [rbx + 128]
	je .L3
	mov rax, rdi
	sub rax, qword ptr [rdi + 32]
	add qword ptr [rbx + 136], rax
	inc qword ptr [rbx + 176]
	cmp byte ptr [rbx + 144], 0
	je .L5
	call r15
	jmp .L4
.L5:
	call r12
	jmp .L4
.L1:
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
	mov rbx, qword ptr [r14 + 288]
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
	je .L6
	mov rcx, qword ptr [rdi + 8]
	mov qword ptr [rsp + 40], rcx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 32], rax
	lea r13, [rdi + 56]
	lea rax, [rdi + 88]
	mov qword ptr [rsp + 16], rax
	lea rax, [rdi + 120]
	mov qword ptr [rsp + 24], rax
	lea rax, [rdi + 152]
	mov qword ptr [rsp + 120], rax
	lea rax, [rdi + 184]
	mov qword ptr [rsp + 112], rax
	lea rax, [rdi + 216]
	mov qword ptr [rsp + 96], rax
	lea rax, [rdi + 248]
	mov qword ptr [rsp + 88], rax
	xor ebp, ebp
	mov rbx, r15
	mov qword ptr [rsp + 56], r13
.L7:
	mov rax, qword ptr [rsp + 40]
	mov edx, dword ptr [rax + rbp + 20]
	mov r14, r13
	cmp dword ptr [rdi + 80], edx
	je .L8
	mov r14, qword ptr [rsp + 16]
	cmp dword ptr [rdi + 112], edx
	je .L8
	mov r14, qword ptr [rsp + 24]
	cmp dword ptr [rdi + 144], edx
	je .L8
	mov r14, qword ptr [rsp + 120]
	cmp dword ptr [rdi + 176], edx
	je .L8
	mov r14, qword ptr [rsp + 112]
	cmp dword ptr [rdi + 208], edx
	je .L8
	mov r14, qword ptr [rsp + 96]
	cmp dword ptr [rdi + 240], edx
	je .L8
	mov r14, qword ptr [rsp + 88]
	cmp dword ptr [rdi + 272], edx
	jne .L9
.L8:
	cmp byte ptr [r14 + 28], 105
	jne .L10
	mov dword ptr [rsp + 8], edx
	mov rax, qword ptr [r14 + 16]
	test rax, rax
	je .L11
	mov r15, r8
	call rax
	mov esi, 3
	test rax, rax
	je .L12
	cmp dword ptr [rax], 430
	mov rcx, qword ptr [rsp]
	mov edx, dword ptr [rsp + 8]
	jne .L13
	movzx esi, byte ptr [rax + 10]
	movzx r12d, byte ptr [rax + 15]
	movzx r14d, word ptr [rax + 6]
	cmp dword ptr [rcx + 80], edx
	je .L14
	mov r13, qword ptr [rsp + 16]
	cmp dword ptr [rcx + 112], edx
	je .L14
	mov r13, qword ptr [rsp + 24]
	cmp dword ptr [rcx + 144], edx
	je .L14
	mov r13, qword ptr [rsp + 120]
	cmp dword ptr [rcx + 176], edx
	je .L14
	mov r13, qword ptr [rsp + 112]
	cmp dword ptr [rcx + 208], edx
	je .L14
	mov r13, qword ptr [rsp + 96]
	cmp dword ptr [rcx + 240], edx
	je .L14
	mov r13, qword ptr [rsp + 88]
	cmp dword ptr [rcx + 272], edx
	jne .L15
.L14:
	cmp byte ptr [r13 + 28], 105
	jne .L16
	mov qword ptr [rsp + 48], rax
	mov rax, qword ptr [r13 + 16]
	test rax, rax
	je .L17
	mov r15, rbp
	mov rbp, rsi
	call rax
	mov r8, rax
	mov eax, 3
	test r8, r8
	je .L18
	cmp dword ptr [r8], 430
	mov rdi, qword ptr [rsp]
	jne .L18
	shl r14d, 8
	lea rax, [2*r12]
	add rax, rbp
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
	mov rbp, r15
	add rbp, 24
	cmp qword ptr [rsp + 32], rbp
	mov r13, qword ptr [rsp + 56]
	jne .L7
	mov rcx, rdi
	mov rdi, qword ptr [rdi + 8]
	mov rax, qword ptr [rcx + 16]
	lea r13, [rcx + 296]
	mov rcx, qword ptr [rcx + 296]
	mov rdx, qword ptr [rsp + 104]
	mov qword ptr [rdx], rcx
	test rax, rax
	je .L19
	shl rax, 3
	lea r14, [rax + 2*rax]
	xor r15d, r15d
.L20:
	mov rax, qword ptr [rdi]
	mov rax, qword ptr [rax + 152]
	test rax, rax
	je .L21
	lea r12, [rdi + 24]
	mov esi, 1
	xor edx, edx
	call rax
	mov rcx, qword ptr [rsp]
	mov rcx, qword ptr [rcx + 32]
	mov qword ptr [rcx + r15], rax
	add r15, 8
	mov rdi, r12
	add r14, -24
	jne .L20
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
	je .L22
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
.L23:
	mov rax, qword ptr [rsp + 16]
	mov rcx, qword ptr [rax + r14]
	mov rax, qword ptr [rcx + 160]
	test rax, rax
	je .L24
	mov r12, qword ptr [rcx + 176]
	test r12, r12
	je .L24
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
	jne .L23
	mov rcx, qword ptr [rsp]
	mov rax, qword ptr [rcx + 16]
	xor rbx, rdx
	test rax, rax
	je .L25
	mov rdx, qword ptr [rcx + 8]
	mov qword ptr [rsp + 16], rdx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 32], rax
	xor ebp, ebp
	xor r14d, r14d
	jmp .L26
.L27:
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
	je .L25
.L26:
	mov rax, qword ptr [rsp + 16]
	mov rax, qword ptr [rax + rbp]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L28
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
	je .L27
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L27
.L6:
	lea r13, [rdi + 296]
	mov rax, qword ptr [rdi + 296]
	mov qword ptr [rcx], rax
	mov rbx, r15
	jmp .L29
.L19:
	mov rdi, qword ptr [rsp]
	movabs r15, -3750763034362895579
.L29:
	lea rax, [rdi + 328]
	mov qword ptr [rsp + 40], rax
	mov qword ptr [rdi + 328], 0
	lea rax, [rdi + 336]
	mov qword ptr [rsp + 48], rax
	mov qword ptr [rdi + 336], r15
	mov qword ptr [rdi + 344], 0
.L22:
	xor r15d, r15d
	mov r14, qword ptr [r13]
	mov r12, qword ptr [r14]
	test r12, r12
	jne .L30
	jmp .L31
.L25:
	mov r13, qword ptr [rsp + 24]
	mov r14, qword ptr [r13]
	mov r12, qword ptr [r14]
	test r12, r12
	je .L31
.L30:
	mov r13, qword ptr [rip + mi_free@GOTPCREL]
	mov rbp, qword ptr [rip + free@GOTPCREL]
	jmp .L32
.L33:
	lea rax, [rdi + 40]
	mov qword ptr [rdi + 24], rax
	xorps xmm0, xmm0
	movups xmmword ptr [rdi + 8], xmm0
.L34:
	test r12, r12
	je .L31
.L32:
	mov rdi, r12
	mov r12, qword ptr [r12 + 16]
	cmp rdi, qword ptr [r14 + 128]
	je .L33
	mov rax, rdi
	sub rax, qword ptr [rdi + 32]
	add qword ptr [r14 + 136], rax
	inc qword ptr [r14 + 176]
	cmp byte ptr [r14 + 144], 0
	je .L35
	call r13
	jmp .L34
.L35:
	call rbp
	jmp .L34
.L31:
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
.L24:
	lea rdi, [rip + .Lanon]
	mov esi, 20
	call hotloops::study::alloc_churn::missing_callback
.L21:
	lea rdi, [rip + .Lanon]
	mov esi, 11
	call hotloops::study::alloc_churn::missing_callback
.L28:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L0:
	mov edi, 1
	call hotloops::study::alloc_churn::wrong_backend
.L16:
	mov eax, 1
	jmp .L18
.L12:
	mov edx, dword ptr [rsp + 8]
	jmp .L13
.L11:
	mov esi, 2
	mov edx, dword ptr [rsp + 8]
	jmp .L13
.L17:
	mov eax, 2
.L18:
	mov r15, qword ptr [r13]
	mov rcx, qword ptr [r13 + 8]
.L36:
	mov dword ptr [rsp + 64], eax
	mov eax, dword ptr [rsp + 8]
	mov dword ptr [rsp + 68], eax
	mov qword ptr [rsp + 72], r15
	mov qword ptr [rsp + 80], rcx
	lea rdi, [rsp + 64]
	call hotloops::study::alloc_churn::lookup_failed
.L10:
	mov esi, 1
.L13:
	mov rax, qword ptr [r14]
	mov rcx, qword ptr [r14 + 8]
.L37:
	mov dword ptr [rsp + 64], esi
	mov dword ptr [rsp + 68], edx
	mov qword ptr [rsp + 72], rax
	mov qword ptr [rsp + 80], rcx
	lea rdi, [rsp + 64]
	call hotloops::study::alloc_churn::lookup_failed
.L9:
	xor esi, esi
	mov rax, qword ptr [rsp + 48]
	jmp .L37
.L15:
	xor eax, eax
	jmp .L36

hl_bthandler_static:
	mov rax, qword ptr [rip + hotloops::pg::amapi::BTREE_AM_ROUTINE@GOTPCREL]
	ret
