# hotloops asm snapshot of `alloc-churn/static-routine`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_static_routine:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 168
	mov qword ptr [rsp + 16], rdi
	mov rbx, qword ptr [rdi + 320]
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
	movabs r14, -3750763034362895579
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
	mov r15, qword ptr [rsp + 16]
	mov rbx, qword ptr [r15 + 320]
	lea rdi, [rip + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@TLSLD]
	call __tls_get_addr@PLT
	mov rcx, rax
	mov rax, qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 144], rax
	mov qword ptr [rsp + 152], rcx
	mov qword ptr [rcx + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF], rbx
	mov rax, qword ptr [r15 + 40]
	test rax, rax
	je .L5
	mov rcx, qword ptr [rsp + 16]
	mov rdx, qword ptr [rcx + 32]
	mov qword ptr [rsp + 96], rdx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 104], rax
	lea rax, [rcx + 88]
	mov qword ptr [rsp + 8], rax
	lea rax, [rcx + 120]
	mov qword ptr [rsp + 88], rax
	lea rax, [rcx + 152]
	mov qword ptr [rsp + 72], rax
	lea rax, [rcx + 184]
	mov qword ptr [rsp + 64], rax
	lea rax, [rcx + 216]
	mov qword ptr [rsp + 128], rax
	lea rax, [rcx + 248]
	mov qword ptr [rsp + 120], rax
	lea rax, [rcx + 280]
	mov qword ptr [rsp + 112], rax
	xor r15d, r15d
.L6:
	mov rax, qword ptr [rsp + 96]
	mov edx, dword ptr [rax + r15 + 20]
	mov rbx, qword ptr [rsp + 8]
	mov rax, qword ptr [rsp + 16]
	cmp dword ptr [rax + 112], edx
	je .L7
	mov rbx, qword ptr [rsp + 88]
	cmp dword ptr [rax + 144], edx
	je .L7
	mov rbx, qword ptr [rsp + 72]
	cmp dword ptr [rax + 176], edx
	je .L7
	mov rbx, qword ptr [rsp + 64]
	cmp dword ptr [rax + 208], edx
	je .L7
	mov rbx, qword ptr [rsp + 128]
	cmp dword ptr [rax + 240], edx
	je .L7
	mov rbx, qword ptr [rsp + 120]
	cmp dword ptr [rax + 272], edx
	je .L7
	mov rbx, qword ptr [rsp + 112]
	cmp dword ptr [rax + 304], edx
	jne .L8
.L7:
	cmp byte ptr [rbx + 28], 105
	jne .L9
	mov dword ptr [rsp + 24], edx
	mov rax, qword ptr [rbx + 16]
	test rax, rax
	je .L10
	mov r12, rdi
	call rax
	mov esi, 3
	test rax, rax
	je .L11
	cmp dword ptr [rax], 430
	mov edx, dword ptr [rsp + 24]
	jne .L12
	movzx ecx, byte ptr [rax + 10]
	movzx r13d, byte ptr [rax + 15]
	movzx ebp, word ptr [rax + 6]
	mov rbx, qword ptr [rsp + 8]
	mov rsi, qword ptr [rsp + 16]
	cmp dword ptr [rsi + 112], edx
	je .L13
	mov rbx, qword ptr [rsp + 88]
	cmp dword ptr [rsi + 144], edx
	je .L13
	mov rbx, qword ptr [rsp + 72]
	cmp dword ptr [rsi + 176], edx
	je .L13
	mov rbx, qword ptr [rsp + 64]
	cmp dword ptr [rsi + 208], edx
	je .L13
	mov rbx, qword ptr [rsp + 128]
	cmp dword ptr [rsi + 240], edx
	je .L13
	mov rbx, qword ptr [rsp + 120]
	cmp dword ptr [rsi + 272], edx
	je .L13
	mov rbx, qword ptr [rsp + 112]
	cmp dword ptr [rsi + 304], edx
	jne .L14
.L13:
	cmp byte ptr [rbx + 28], 105
	jne .L15
	mov qword ptr [rsp + 80], rax
	mov rax, qword ptr [rbx + 16]
	test rax, rax
	je .L16
	mov r12, r15
	mov r15, rcx
	call rax
	mov rdi, rax
	mov eax, 3
	test rdi, rdi
	je .L17
	cmp dword ptr [rdi], 430
	jne .L17
	shl ebp, 8
	lea rax, [r15 + 2*r13]
	or rax, rbp
	xor rax, r14
	movabs rsi, 1099511628211
	imul rax, rsi
	movzx ecx, byte ptr [rdi + 13]
	movzx edx, byte ptr [rdi + 19]
	lea rcx, [rcx + 2*rdx]
	movzx r14d, word ptr [rdi + 4]
	shl r14d, 8
	or r14, rcx
	xor r14, rax
	imul r14, rsi
	mov r15, r12
	add r15, 24
	cmp qword ptr [rsp + 104], r15
	jne .L6
.L5:
	mov qword ptr [rsp + 80], r14
	mov rax, qword ptr [rsp + 152]
	lea rbx, [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov r14, qword ptr [rsp + 16]
	mov rax, qword ptr [r14 + 72]
	movzx edx, byte ptr [rax + 25]
	lea rdi, [rip + .Lanon]
	mov esi, 13
	mov r8d, 8192
	mov r9d, 8388608
	mov dword ptr [rsp + 8], edx
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov qword ptr [rsp + 136], rax
	mov qword ptr [rsp + 72], rbx
	mov qword ptr [rsp + 96], rax
	mov qword ptr [rbx], rax
	mov r13, qword ptr [r14 + 40]
	lea rbp, [rsp + 36]
	add r13, 3
	jmp .L18
.L19:
	mov rax, qword ptr [r14 + 8]
	mov qword ptr [rax + 8*rbx], r12
	inc rbx
	mov qword ptr [r14 + 16], rbx
	dec r13
	je .L20
.L18:
	mov esi, 128
	lea rdi, [rsp + 136]
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
	xorps xmm2, xmm2
	movups xmmword ptr [rbp], xmm2
	mov qword ptr [rbp + 16], 0
	mov dword ptr [r15], 1
	movups xmm0, xmmword ptr [rsp + 32]
	movups xmm1, xmmword ptr [rsp + 44]
	movups xmmword ptr [r15 + 4], xmm0
	movups xmmword ptr [r15 + 16], xmm1
	mov rax, qword ptr [rsp + 96]
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
	mov rbx, qword ptr [r14 + 16]
	cmp rbx, qword ptr [r14]
	jne .L19
	mov rdi, r14
	call qword ptr [rip + alloc::raw_vec::RawVec<T,A>::grow_one@GOTPCREL]
	jmp .L19
.L20:
	lea rdi, [rip + .Lanon]
	mov esi, 8
	mov r8d, 8192
	mov r9d, 8388608
	mov edx, dword ptr [rsp + 8]
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov rcx, rax
	mov qword ptr [rsp + 160], rax
	mov qword ptr [r14 + 352], 0
	movabs rax, -3750763034362895579
	mov qword ptr [r14 + 360], rax
	mov qword ptr [r14 + 368], 0
	mov rax, qword ptr [r14 + 40]
	test rax, rax
	je .L21
	mov qword ptr [rsp + 64], rcx
	lea rcx, [r14 + 352]
	mov qword ptr [rsp + 88], rcx
	mov rdi, qword ptr [r14 + 32]
	shl rax, 3
	lea rdx, [rax + 2*rax]
	lea rax, [r14 + 336]
	mov qword ptr [rsp + 104], rax
	xor r14d, r14d
	xor ebp, ebp
	xor ebx, ebx
.L22:
	mov rcx, qword ptr [rdi]
	mov rax, qword ptr [rcx + 152]
	test rax, rax
	je .L23
	mov r12, qword ptr [rcx + 160]
	test r12, r12
	je .L23
	mov r13, qword ptr [rcx + 176]
	test r13, r13
	je .L23
	lea rcx, [rdi + 24]
	mov qword ptr [rsp + 24], rcx
	mov esi, 1
	mov qword ptr [rsp + 8], rdx
	xor edx, edx
	call rax
	mov r15, rax
	mov byte ptr [rax + 48], 1
	mov rax, qword ptr [rsp + 16]
	mov rax, qword ptr [rax + 56]
	mov qword ptr [rax + rbp], r15
	mov rdi, r15
	mov rsi, qword ptr [rsp + 104]
	mov edx, 1
	xor ecx, ecx
	xor r8d, r8d
	call r12
	mov rdi, r15
	mov rsi, qword ptr [rsp + 88]
	call r13
	mov rdx, qword ptr [rsp + 8]
	add rbx, rax
	xor r14, rax
	movabs rax, 1099511628211
	imul r14, rax
	add rbp, 8
	mov rdi, qword ptr [rsp + 24]
	add rdx, -24
	jne .L22
	xor qword ptr [rsp + 80], rbx
	mov rcx, qword ptr [rsp + 64]
	jmp .L24
.L21:
	xor r14d, r14d
.L24:
	mov qword ptr [rsp + 32], rcx
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rax, qword ptr [rsp + 16]
	mov rcx, qword ptr [rax + 32]
	mov qword ptr [rsp + 24], rcx
	mov rax, qword ptr [rax + 40]
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 8], rax
	xor ebp, ebp
	xor r13d, r13d
	jmp .L25
.L26:
	shl r12, 32
	or r12, rbx
	xor r12, r14
	movabs rax, 1099511628211
	imul r12, rax
	add rbp, 24
	inc r13
	mov rdi, r15
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov r14, r12
.L25:
	cmp qword ptr [rsp + 8], rbp
	je .L27
	mov rax, qword ptr [rsp + 24]
	mov rax, qword ptr [rax + rbp]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L28
	mov rcx, qword ptr [rsp + 16]
	mov rcx, qword ptr [rcx + 56]
	mov r15, qword ptr [rcx + 8*r13]
	mov rcx, qword ptr [r15 + 56]
	mov r12d, dword ptr [rcx + 4]
	mov ebx, dword ptr [rcx + 92]
	mov rdi, r15
	call rax
	mov rdi, qword ptr [r15 + 32]
	test rdi, rdi
	je .L26
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L26
.L27:
	mov r12, qword ptr [rsp + 16]
	mov rax, qword ptr [r12 + 16]
	test rax, rax
	je .L29
	lea r15, [rsp + 32]
	mov rbx, qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L30:
	lea rcx, [rax - 1]
	mov qword ptr [r12 + 16], rcx
	mov rcx, qword ptr [r12 + 8]
	mov rax, qword ptr [rcx + 8*rax - 8]
	mov qword ptr [rsp + 32], rax
	mov rdi, r15
	call rbx
	mov rax, qword ptr [r12 + 16]
	test rax, rax
	jne .L30
.L29:
	mov rax, qword ptr [rsp + 144]
	mov rcx, qword ptr [rsp + 72]
	mov qword ptr [rcx], rax
	mov rcx, qword ptr [rsp + 96]
	mov rax, qword ptr [rcx + 168]
	mov qword ptr [r12 + 328], rax
	mov qword ptr [rsp + 32], rcx
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rdx, qword ptr [r12 + 352]
	rol rdx, 32
	movabs rcx, 1099511628211
	mov rax, qword ptr [rsp + 80]
	imul rax, rcx
	xor rax, qword ptr [r12 + 360]
	xor rax, rdx
	imul rax, rcx
	xor rax, r14
	imul rax, rcx
	add rsp, 168
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L23:
	lea rdi, [rip + .Lanon]
	mov esi, 32
	call hotloops::study::alloc_churn::missing_callback
	jmp .L31
.L28:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L31:
	ud2
.L10:
	mov esi, 2
.L11:
	mov edx, dword ptr [rsp + 24]
	jmp .L12
.L16:
	mov eax, 2
	jmp .L17
.L15:
	mov eax, 1
.L17:
	mov r12, qword ptr [rbx]
	mov rcx, qword ptr [rbx + 8]
.L32:
	mov dword ptr [rsp + 32], eax
	mov eax, dword ptr [rsp + 24]
	mov dword ptr [rsp + 36], eax
	mov qword ptr [rsp + 40], r12
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L9:
	mov esi, 1
.L12:
	mov rax, qword ptr [rbx]
	mov rcx, qword ptr [rbx + 8]
.L33:
	mov dword ptr [rsp + 32], esi
	mov dword ptr [rsp + 36], edx
	mov qword ptr [rsp + 40], rax
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L8:
	xor esi, esi
	mov rax, qword ptr [rsp + 80]
	jmp .L33
.L14:
	xor eax, eax
	jmp .L32
	jmp .L34
	mov rbx, rax
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	jmp .L35
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
	jmp .L34
	jmp .L34
	jmp .L34
.L34:
	mov rbx, rax
	jmp .L35
	mov rbx, rax
	lea rdi, [rsp + 160]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L35:
	lea rdi, [rsp + 136]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rdi, rbx
	call _Unwind_Resume@PLT
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]

hl_bthandler_static:
	mov rax, qword ptr [rip + hotloops::pg::amapi::BTREE_AM_ROUTINE@GOTPCREL]
	ret
