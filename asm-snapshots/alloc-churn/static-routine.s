# hotloops asm snapshot of `alloc-churn/static-routine`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_static_routine:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 200
	lea rbx, [rdi + 784]
	mov qword ptr [rsp], rdi
	cmp qword ptr [rdi + 784], 0
	mov qword ptr [rsp + 8], rbx
	je .L0
	mov rdi, rbx
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L0:
	mov rax, qword ptr [rsp]
	mov qword ptr [rax + 784], 0
	mov rbx, qword ptr [rax + 760]
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
	mov r14, qword ptr [rsp]
	lea rax, [r14 + 760]
	mov qword ptr [rsp + 16], rax
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
	mov rbx, qword ptr [r14 + 760]
	lea rdi, [rip + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@TLSLD]
	call __tls_get_addr@PLT
	lea rcx, [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 136], rcx
	mov rcx, qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 176], rcx
	mov qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF], rbx
	movzx eax, byte ptr [r14 + 832]
	mov qword ptr [rsp + 64], rax
	xor rax, 1
	lea r13, [rax + 4*rax]
	add r13, 18982
	lea rbp, [rip + .Lanon]
	xor r12d, r12d
	xor r15d, r15d
.L6:
	mov rax, r12
	movabs rcx, -6148914691236517205
	mul rcx
	shl rdx, 2
	and rdx, -32
	lea rax, [rdx + 2*rdx]
	mov rcx, rbp
	sub rcx, rax
	mov r14, qword ptr [rcx]
	lea rax, [r14 - 1]
	shr rax, 3
	mov edx, 127
	bsr rdx, rax
	not edx
	mov cl, 3
	sub cl, dl
	mov eax, 1
	shl rax, cl
	add r15, rax
	add r15, 8
	cmp r15, r13
	ja .L7
	mov rdi, qword ptr [rsp + 16]
	mov rsi, r14
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r14
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 32], rbx
	lea rax, [rsp + 32]
	inc r12
	add rbp, 8
	jmp .L6
.L7:
	cmp byte ptr [rsp + 64], 0
	mov eax, 6949
	mov r15d, 7381
	cmovne r15, rax
	mov eax, 7326
	mov ecx, 7250
	cmovne rcx, rax
	mov qword ptr [rsp + 88], rcx
	mov eax, 4414
	mov ecx, 4834
	cmovne rcx, rax
	mov qword ptr [rsp + 64], rcx
	mov rax, qword ptr [rsp]
	mov rax, qword ptr [rax + 520]
	movzx edx, byte ptr [rax + 25]
	lea rdi, [rip + .Lanon]
	xor r13d, r13d
	mov esi, 19
	mov r8d, 8192
	mov r9d, 8388608
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov qword ptr [rsp + 24], rax
	mov qword ptr [rsp + 104], rax
	lea r12, [rip + .Lanon]
	xor ebp, ebp
.L8:
	mov rax, r13
	movabs rcx, -6148914691236517205
	mul rcx
	shl rdx, 2
	and rdx, -32
	lea rax, [rdx + 2*rdx]
	mov rcx, r12
	sub rcx, rax
	mov r14, qword ptr [rcx]
	lea rax, [r14 - 1]
	shr rax, 3
	mov edx, 127
	bsr rdx, rax
	not edx
	mov cl, 3
	sub cl, dl
	mov eax, 1
	shl rax, cl
	add rbp, rax
	add rbp, 8
	cmp rbp, 7328
	ja .L9
	lea rdi, [rsp + 104]
	mov rsi, r14
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r14
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 32], rbx
	lea rax, [rsp + 32]
	inc r13
	add r12, 8
	jmp .L8
.L9:
	mov rdi, qword ptr [rsp + 8]
	cmp qword ptr [rdi], 0
	je .L10
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L10:
	movabs rcx, -3750763034362895579
	mov rax, qword ptr [rsp]
	mov rdx, qword ptr [rsp + 24]
	mov qword ptr [rax + 784], rdx
	mov rax, qword ptr [rax + 144]
	mov qword ptr [rsp + 80], rax
	test rax, rax
	je .L11
	mov rax, qword ptr [rsp]
	lea rbp, [rax + 536]
	lea rcx, [rax + 568]
	mov qword ptr [rsp + 168], rcx
	lea rcx, [rax + 600]
	mov qword ptr [rsp + 160], rcx
	lea rcx, [rax + 632]
	mov qword ptr [rsp + 152], rcx
	lea rcx, [rax + 664]
	mov qword ptr [rsp + 144], rcx
	lea rcx, [rax + 696]
	mov qword ptr [rsp + 128], rcx
	add rax, 728
	mov qword ptr [rsp + 120], rax
	mov qword ptr [rsp + 8], 0
	movabs rcx, -3750763034362895579
	mov qword ptr [rsp + 112], rbp
.L12:
	mov qword ptr [rsp + 24], rcx
	mov rax, qword ptr [rsp]
	mov rax, qword ptr [rax + 136]
	mov qword ptr [rsp + 72], rax
	lea r14, [rip + .Lanon]
	xor r13d, r13d
	xor ebp, ebp
.L13:
	mov rax, rbp
	movabs rcx, -6148914691236517205
	mul rcx
	shl rdx, 2
	and rdx, -32
	lea rax, [rdx + 2*rdx]
	mov rcx, r14
	sub rcx, rax
	mov rbx, qword ptr [rcx]
	lea rax, [rbx - 1]
	shr rax, 3
	mov edx, 127
	bsr rdx, rax
	not edx
	mov cl, 3
	sub cl, dl
	mov eax, 1
	shl rax, cl
	add r13, rax
	add r13, 8
	cmp r13, r15
	ja .L14
	mov rdi, qword ptr [rsp + 16]
	mov rsi, rbx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov r12, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, rbx
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 32], r12
	lea rax, [rsp + 32]
	inc rbp
	add r14, 8
	jmp .L13
.L14:
	mov rax, qword ptr [rsp + 8]
	lea r12, [rax + 2*rax]
	mov r14, qword ptr [rsp + 72]
	mov ebx, dword ptr [r14 + 8*r12 + 20]
	mov r13, qword ptr [rsp + 112]
	mov rbp, r13
	mov rax, qword ptr [rsp]
	cmp dword ptr [rax + 560], ebx
	je .L15
	mov rbp, qword ptr [rsp + 168]
	cmp dword ptr [rax + 592], ebx
	je .L15
	mov rbp, qword ptr [rsp + 160]
	cmp dword ptr [rax + 624], ebx
	je .L15
	mov rbp, qword ptr [rsp + 152]
	cmp dword ptr [rax + 656], ebx
	je .L15
	mov rbp, qword ptr [rsp + 144]
	cmp dword ptr [rax + 688], ebx
	je .L15
	mov rbp, qword ptr [rsp + 128]
	cmp dword ptr [rax + 720], ebx
	je .L15
	mov rbp, qword ptr [rsp + 120]
	cmp dword ptr [rax + 752], ebx
	jne .L16
.L15:
	cmp byte ptr [rbp + 28], 105
	jne .L17
	mov rax, qword ptr [rbp + 16]
	test rax, rax
	je .L18
	call rax
	mov edx, 3
	test rax, rax
	je .L19
	cmp dword ptr [rax], 430
	jne .L19
	lea rcx, [r14 + 8*r12]
	movzx edx, byte ptr [rax + 10]
	movzx ebx, byte ptr [rax + 15]
	movzx r14d, word ptr [rax + 6]
	mov edi, dword ptr [rcx + 20]
	mov r12, r13
	mov rcx, qword ptr [rsp]
	cmp dword ptr [rcx + 560], edi
	mov dword ptr [rsp + 72], edi
	je .L20
	mov r12, qword ptr [rsp + 168]
	cmp dword ptr [rcx + 592], edi
	je .L20
	mov r12, qword ptr [rsp + 160]
	cmp dword ptr [rcx + 624], edi
	je .L20
	mov r12, qword ptr [rsp + 152]
	cmp dword ptr [rcx + 656], edi
	je .L20
	mov r12, qword ptr [rsp + 144]
	cmp dword ptr [rcx + 688], edi
	je .L20
	mov r12, qword ptr [rsp + 128]
	cmp dword ptr [rcx + 720], edi
	je .L20
	mov r12, qword ptr [rsp + 120]
	cmp dword ptr [rcx + 752], edi
	jne .L21
.L20:
	cmp byte ptr [r12 + 28], 105
	jne .L22
	mov qword ptr [rsp + 192], rax
	mov rax, qword ptr [r12 + 16]
	test rax, rax
	je .L23
	mov r13, rdx
	call rax
	mov rdi, rax
	mov eax, 3
	test rdi, rdi
	je .L24
	cmp dword ptr [rdi], 430
	mov rcx, qword ptr [rsp + 24]
	jne .L24
	mov rsi, qword ptr [rsp + 8]
	inc rsi
	lea rax, [2*rbx]
	add rax, r13
	shl r14d, 8
	or r14, rax
	xor r14, rcx
	movabs rdx, 1099511628211
	imul r14, rdx
	movzx eax, byte ptr [rdi + 13]
	movzx ecx, byte ptr [rdi + 19]
	lea rax, [rax + 2*rcx]
	mov qword ptr [rsp + 184], rdi
	movzx ecx, word ptr [rdi + 4]
	shl ecx, 8
	or rcx, rax
	xor rcx, r14
	imul rcx, rdx
	mov qword ptr [rsp + 8], rsi
	cmp rsi, qword ptr [rsp + 80]
	jne .L12
.L11:
	mov qword ptr [rsp + 24], rcx
	mov rax, qword ptr [rsp]
	mov rax, qword ptr [rax + 520]
	movzx edx, byte ptr [rax + 25]
	lea rdi, [rip + .Lanon]
	xor r12d, r12d
	mov esi, 13
	mov r8d, 8192
	mov r9d, 8388608
	mov dword ptr [rsp + 8], edx
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov rcx, rax
	mov qword ptr [rsp + 96], rax
	mov rax, qword ptr [rsp + 136]
	mov qword ptr [rsp + 72], rcx
	mov qword ptr [rax], rcx
	lea r14, [rip + .Lanon]
	lea rbp, [rsp + 32]
	xor r13d, r13d
.L25:
	mov rax, r12
	movabs rcx, -6148914691236517205
	mul rcx
	shl rdx, 2
	and rdx, -32
	lea rax, [rdx + 2*rdx]
	mov rcx, r14
	sub rcx, rax
	mov r15, qword ptr [rcx]
	lea rax, [r15 - 1]
	shr rax, 3
	mov edx, 127
	bsr rdx, rax
	not edx
	mov cl, 3
	sub cl, dl
	mov eax, 1
	shl rax, cl
	add r13, rax
	add r13, 8
	cmp r13, qword ptr [rsp + 88]
	ja .L26
	lea rdi, [rsp + 96]
	mov rsi, r15
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r15
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 32], rbx
	inc r12
	add r14, 8
	jmp .L25
.L26:
	mov rax, qword ptr [rsp]
	mov rcx, qword ptr [rax + 144]
	add rax, 104
	mov qword ptr [rsp + 80], rax
	add rcx, 2
	mov qword ptr [rsp + 88], rcx
	mov qword ptr [rsp + 16], 0
	lea r13, [rsp + 96]
	jmp .L27
.L28:
	mov rax, qword ptr [rsp + 16]
	cmp rax, qword ptr [rsp + 88]
	lea rax, [rax + 1]
	mov qword ptr [rsp + 16], rax
	je .L29
.L27:
	mov esi, 128
	mov rdi, r13
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov r15, rax
	mov esi, 11
	mov r8d, 8192
	mov r9d, 8388608
	lea rdi, [rip + .Lanon]
	mov edx, dword ptr [rsp + 8]
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov r12, rax
	lea rax, [rsp + 36]
	xorps xmm2, xmm2
	movups xmmword ptr [rax], xmm2
	mov qword ptr [rax + 16], 0
	mov dword ptr [r15], 1
	movups xmm0, xmmword ptr [rsp + 32]
	movups xmm1, xmmword ptr [rsp + 44]
	movups xmmword ptr [r15 + 4], xmm0
	movups xmmword ptr [r15 + 16], xmm1
	mov rax, qword ptr [rsp + 72]
	mov qword ptr [r15 + 32], rax
	mov qword ptr [r15 + 40], r12
	movups xmmword ptr [r15 + 48], xmm2
	movups xmmword ptr [r15 + 64], xmm2
	mov qword ptr [r15 + 80], 0
	mov byte ptr [r15 + 88], 1
	mov qword ptr [r15 + 96], 0
	mov byte ptr [r15 + 104], 1
	movups xmmword ptr [r15 + 112], xmm2
	mov qword ptr [rsp + 32], r12
	mov rax, qword ptr [rsp]
	mov rbx, qword ptr [rax + 120]
	cmp rbx, qword ptr [rax + 104]
	jne .L30
	mov rdi, qword ptr [rsp + 80]
	call qword ptr [rip + alloc::raw_vec::RawVec<T,A>::grow_one@GOTPCREL]
.L30:
	mov rcx, qword ptr [rsp]
	mov rax, qword ptr [rcx + 112]
	mov qword ptr [rax + 8*rbx], r12
	inc rbx
	mov qword ptr [rcx + 120], rbx
	cmp qword ptr [rsp + 16], 3
	jb .L28
	lea rbp, [rip + .Lanon]
	xor r14d, r14d
	xor r15d, r15d
.L31:
	mov rax, r15
	movabs rcx, -6148914691236517205
	mul rcx
	shl rdx, 2
	and rdx, -32
	lea rax, [rdx + 2*rdx]
	mov rcx, rbp
	sub rcx, rax
	mov r12, qword ptr [rcx]
	lea rax, [r12 - 1]
	shr rax, 3
	mov edx, 127
	bsr rdx, rax
	not edx
	mov cl, 3
	sub cl, dl
	mov eax, 1
	shl rax, cl
	add r14, rax
	add r14, 8
	cmp r14, qword ptr [rsp + 64]
	ja .L28
	mov rdi, r13
	mov rsi, r12
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r12
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 32], rbx
	lea rax, [rsp + 32]
	inc r15
	add rbp, 8
	jmp .L31
.L29:
	lea rdi, [rip + .Lanon]
	mov esi, 8
	mov r8d, 8192
	mov r9d, 8388608
	mov edx, dword ptr [rsp + 8]
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov rdx, rax
	mov qword ptr [rsp + 104], rdx
	mov rcx, qword ptr [rsp]
	movzx esi, byte ptr [rcx + 832]
	mov qword ptr [rcx + 808], 0
	movabs rax, -3750763034362895579
	mov qword ptr [rcx + 816], rax
	mov qword ptr [rcx + 824], 0
	mov rax, qword ptr [rcx + 144]
	test rax, rax
	je .L32
	mov qword ptr [rsp + 112], rdx
	lea rdx, [rcx + 808]
	mov qword ptr [rsp + 88], rdx
	mov rdi, qword ptr [rcx + 136]
	shl rax, 3
	lea rdx, [rax + 2*rax]
	xor sil, 1
	mov byte ptr [rsp + 8], sil
	lea rax, [rcx + 792]
	mov qword ptr [rsp + 80], rax
	xor r13d, r13d
	xor ebp, ebp
	xor r14d, r14d
.L33:
	mov rcx, qword ptr [rdi]
	mov rax, qword ptr [rcx + 152]
	test rax, rax
	je .L34
	mov r12, qword ptr [rcx + 160]
	test r12, r12
	je .L34
	mov r15, qword ptr [rcx + 176]
	test r15, r15
	je .L34
	lea rcx, [rdi + 24]
	mov qword ptr [rsp + 64], rcx
	mov esi, 1
	mov qword ptr [rsp + 16], rdx
	xor edx, edx
	call rax
	mov rbx, rax
	movzx eax, byte ptr [rsp + 8]
	mov byte ptr [rbx + 48], al
	mov rax, qword ptr [rsp]
	mov rax, qword ptr [rax + 160]
	mov qword ptr [rax + rbp], rbx
	mov rdi, rbx
	mov rsi, qword ptr [rsp + 80]
	mov edx, 1
	xor ecx, ecx
	xor r8d, r8d
	call r12
	mov rdi, rbx
	mov rsi, qword ptr [rsp + 88]
	call r15
	mov rdx, qword ptr [rsp + 16]
	add r13, rax
	xor r14, rax
	movabs rax, 1099511628211
	imul r14, rax
	add rbp, 8
	mov rdi, qword ptr [rsp + 64]
	add rdx, -24
	jne .L33
	xor qword ptr [rsp + 24], r13
	mov rdx, qword ptr [rsp + 112]
	jmp .L35
.L32:
	xor r14d, r14d
.L35:
	mov qword ptr [rsp + 32], rdx
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rbx, qword ptr [rsp]
	cmp byte ptr [rbx + 833], 0
	jne .L36
.L37:
	mov rax, qword ptr [rbx + 136]
	mov qword ptr [rsp + 64], rax
	mov rax, qword ptr [rbx + 144]
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 16], rax
	xor r13d, r13d
	xor ebp, ebp
	jmp .L38
.L39:
	shl r12, 32
	or r12, rbx
	xor r12, r14
	movabs rax, 1099511628211
	imul r12, rax
	add r13, 24
	inc rbp
	mov rdi, r15
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov r14, r12
.L38:
	cmp qword ptr [rsp + 16], r13
	je .L40
	mov rax, qword ptr [rsp + 64]
	mov rax, qword ptr [rax + r13]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L41
	mov rcx, qword ptr [rsp]
	mov rcx, qword ptr [rcx + 160]
	mov r15, qword ptr [rcx + 8*rbp]
	mov rcx, qword ptr [r15 + 56]
	mov r12d, dword ptr [rcx + 4]
	mov ebx, dword ptr [rcx + 92]
	mov rdi, r15
	call rax
	mov rdi, qword ptr [r15 + 32]
	test rdi, rdi
	je .L39
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L39
.L40:
	mov r12, qword ptr [rsp]
	mov rax, qword ptr [r12 + 120]
	test rax, rax
	je .L42
	lea rbx, [rsp + 32]
	mov r15, qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L43:
	lea rcx, [rax - 1]
	mov qword ptr [r12 + 120], rcx
	mov rcx, qword ptr [r12 + 112]
	mov rax, qword ptr [rcx + 8*rax - 8]
	mov qword ptr [rsp + 32], rax
	mov rdi, rbx
	call r15
	mov rax, qword ptr [r12 + 120]
	test rax, rax
	jne .L43
.L42:
	mov rax, qword ptr [rsp + 136]
	mov rcx, qword ptr [rsp + 176]
	mov qword ptr [rax], rcx
	mov rcx, qword ptr [rsp + 72]
	mov rax, qword ptr [rcx + 168]
	mov qword ptr [r12 + 776], rax
	mov qword ptr [rsp + 32], rcx
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rdx, qword ptr [r12 + 808]
	rol rdx, 32
	movabs rcx, 1099511628211
	mov rax, qword ptr [rsp + 24]
	imul rax, rcx
	xor rax, qword ptr [r12 + 816]
	xor rax, rdx
	imul rax, rcx
	xor rax, r14
	imul rax, rcx
	add rsp, 200
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L34:
	lea rdi, [rip + .Lanon]
	mov esi, 32
	call hotloops::study::alloc_churn::missing_callback
	jmp .L44
.L41:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L44:
	ud2
.L36:
	lea rsi, [rsp + 96]
	mov rdi, rbx
	call hotloops::study::alloc_churn::record_contexts
	jmp .L37
.L18:
	mov edx, 2
	jmp .L19
.L23:
	mov eax, 2
	jmp .L24
.L22:
	mov eax, 1
.L24:
	mov rdx, qword ptr [r12]
	mov rcx, qword ptr [r12 + 8]
.L45:
	mov dword ptr [rsp + 32], eax
	mov eax, dword ptr [rsp + 72]
	mov dword ptr [rsp + 36], eax
	mov qword ptr [rsp + 40], rdx
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L17:
	mov edx, 1
.L19:
	mov rax, qword ptr [rbp]
	mov rcx, qword ptr [rbp + 8]
.L46:
	mov dword ptr [rsp + 32], edx
	mov dword ptr [rsp + 36], ebx
	mov qword ptr [rsp + 40], rax
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L16:
	xor edx, edx
	mov rax, qword ptr [rsp + 192]
	jmp .L46
.L21:
	xor eax, eax
	mov rdx, qword ptr [rsp + 184]
	jmp .L45
	mov rbx, rax
	jmp .L47
	mov rbx, rax
	mov qword ptr [rsp + 24], 0
.L47:
	mov rax, qword ptr [rsp + 8]
	mov rcx, qword ptr [rsp + 24]
	mov qword ptr [rax], rcx
	mov rdi, rbx
	call _Unwind_Resume@PLT
	jmp .L48
	mov rbx, rax
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	jmp .L49
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
	jmp .L48
	jmp .L48
	mov rbx, rax
	lea rdi, [rsp + 104]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	jmp .L50
	jmp .L48
	jmp .L48
	jmp .L48
.L48:
	mov rbx, rax
	jmp .L49
	mov rbx, rax
	lea rdi, [rsp + 104]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L49:
	lea rdi, [rsp + 96]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L50:
	mov rdi, rbx
	call _Unwind_Resume@PLT
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]

hl_bthandler_static:
	mov rax, qword ptr [rip + hotloops::pg::amapi::BTREE_AM_ROUTINE@GOTPCREL]
	ret
