# hotloops asm snapshot of `alloc-churn/palloc-routine`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_palloc_routine:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 632
	mov r13, rdi
	lea rbx, [rdi + 784]
	cmp qword ptr [rdi + 784], 0
	mov qword ptr [rsp], rbx
	je .L0
	mov rdi, rbx
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L0:
	mov qword ptr [r13 + 784], 0
	mov rbx, qword ptr [r13 + 760]
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
	lea rax, [r13 + 760]
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
	mov rbx, qword ptr [r13 + 760]
	lea rdi, [rip + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@TLSLD]
	call __tls_get_addr@PLT
	lea rcx, [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 120], rcx
	mov rcx, qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 160], rcx
	mov qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF], rbx
	mov qword ptr [rsp + 8], r13
	movzx ebp, byte ptr [r13 + 832]
	xor r12d, r12d
	movabs rcx, -6148914691236517205
	lea rsi, [rip + .Lanon]
	lea r14, [rsp + 184]
	xor r15d, r15d
	jmp .L6
.L7:
	mov eax, 1
	shl rax, cl
	add r15, rax
	inc r12
	movabs rcx, -6148914691236517205
	lea rsi, [rip + .Lanon]
.L6:
	mov rax, r12
	mul rcx
	shr edx
	and edx, -4
	lea eax, [rdx + 2*rdx]
	mov ecx, r12d
	sub ecx, eax
	shl ecx, 3
	mov r13, qword ptr [rcx + rsi]
	add r15, 8
.L8:
	mov ecx, 3
	cmp r13, 9
	jb .L9
	lea rax, [r13 - 1]
	shr rax, 3
	mov ecx, 127
	bsr rcx, rax
	add ecx, 4
	and ecx, 63
.L9:
	mov eax, 1
	shl rax, cl
	add rax, r15
	cmp rax, 20432
	jbe .L10
	mov rax, r13
	shr rax
	cmp r13, 64
	mov r13, rax
	jae .L8
	jmp .L11
.L10:
	mov rdi, qword ptr [rsp + 16]
	mov rsi, r13
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r13
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 184], rbx
	mov ecx, 3
	cmp r13, 8
	jbe .L7
	dec r13
	shr r13, 3
	mov ecx, 127
	bsr rcx, r13
	add ecx, 4
	and ecx, 63
	jmp .L7
.L11:
	test bpl, bpl
	mov eax, 7345
	mov r12d, 7777
	cmovne r12, rax
	mov eax, 7310
	mov ecx, 7234
	cmovne rcx, rax
	mov qword ptr [rsp + 96], rcx
	mov eax, 4414
	mov ecx, 4834
	cmovne rcx, rax
	mov qword ptr [rsp + 72], rcx
	mov rax, qword ptr [rsp + 8]
	mov rax, qword ptr [rax + 520]
	movzx edx, byte ptr [rax + 25]
	lea rdi, [rip + .Lanon]
	xor r15d, r15d
	mov esi, 19
	mov r8d, 8192
	mov r9d, 8388608
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov r14, rax
	mov qword ptr [rsp + 24], rax
	xor r13d, r13d
	jmp .L12
.L13:
	mov eax, 1
	shl rax, cl
	add r13, rax
	inc r15
.L12:
	mov rax, r15
	movabs rcx, -6148914691236517205
	mul rcx
	shr edx
	and edx, -4
	lea eax, [rdx + 2*rdx]
	mov ecx, r15d
	sub ecx, eax
	shl ecx, 3
	lea rax, [rip + .Lanon]
	mov rbp, qword ptr [rcx + rax]
	add r13, 8
.L14:
	mov ecx, 3
	cmp rbp, 9
	jb .L15
	lea rax, [rbp - 1]
	shr rax, 3
	mov ecx, 127
	bsr rcx, rax
	add ecx, 4
	and ecx, 63
.L15:
	mov eax, 1
	shl rax, cl
	add rax, r13
	cmp rax, 7328
	jbe .L16
	mov rax, rbp
	shr rax
	cmp rbp, 64
	mov rbp, rax
	jae .L14
	jmp .L17
.L16:
	lea rdi, [rsp + 24]
	mov rsi, rbp
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, rbp
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 184], rbx
	lea rax, [rsp + 184]
	mov ecx, 3
	cmp rbp, 8
	jbe .L13
	dec rbp
	shr rbp, 3
	mov ecx, 127
	bsr rcx, rbp
	add ecx, 4
	and ecx, 63
	jmp .L13
.L17:
	mov rdi, qword ptr [rsp]
	cmp qword ptr [rdi], 0
	je .L18
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L18:
	movabs r13, -3750763034362895579
	mov r15, qword ptr [rsp + 8]
	mov qword ptr [r15 + 784], r14
	lea rdi, [rsp + 280]
	mov edx, 352
	xor esi, esi
	call qword ptr [rip + memset@GOTPCREL]
	mov esi, 64
	mov r14, qword ptr [rsp + 16]
	mov rdi, r14
	mov rbp, qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	call rbp
	xorps xmm0, xmm0
	movups xmmword ptr [rax], xmm0
	movups xmmword ptr [rax + 16], xmm0
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 48], xmm0
	mov qword ptr [rsp + 32], rax
	lea rbx, [rsp + 32]
	mov qword ptr [rsp + 184], 1
	mov qword ptr [rsp + 192], 1
	mov qword ptr [rsp + 200], 5
	mov qword ptr [rsp + 208], 0
	mov esi, 64
	mov rdi, r14
	call rbp
	xorps xmm0, xmm0
	movups xmmword ptr [rax], xmm0
	movups xmmword ptr [rax + 16], xmm0
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 48], xmm0
	mov qword ptr [rsp + 32], rax
	mov qword ptr [rsp + 216], 1
	mov qword ptr [rsp + 224], 1
	mov qword ptr [rsp + 232], 5
	mov qword ptr [rsp + 240], 0
	mov esi, 64
	mov rdi, r14
	call rbp
	xorps xmm0, xmm0
	movups xmmword ptr [rax], xmm0
	movups xmmword ptr [rax + 16], xmm0
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 48], xmm0
	mov qword ptr [rsp + 32], rax
	mov qword ptr [rsp + 248], 1
	mov qword ptr [rsp + 256], 1
	mov qword ptr [rsp + 264], 5
	mov qword ptr [rsp + 272], 0
	mov rax, qword ptr [r15 + 144]
	mov rcx, r13
	mov qword ptr [rsp + 88], rax
	test rax, rax
	mov r14, qword ptr [rsp + 72]
	je .L19
	mov rax, qword ptr [rsp + 8]
	lea rcx, [rax + 536]
	mov qword ptr [rsp + 64], rcx
	lea rcx, [rax + 568]
	mov qword ptr [rsp + 152], rcx
	lea rcx, [rax + 600]
	mov qword ptr [rsp + 144], rcx
	lea rcx, [rax + 632]
	mov qword ptr [rsp + 136], rcx
	lea rcx, [rax + 664]
	mov qword ptr [rsp + 128], rcx
	lea rcx, [rax + 696]
	mov qword ptr [rsp + 112], rcx
	add rax, 728
	mov qword ptr [rsp + 104], rax
	mov qword ptr [rsp], 0
	movabs rcx, -3750763034362895579
.L20:
	mov qword ptr [rsp + 80], rcx
	mov r13d, 24
	mov r15, qword ptr [rsp + 16]
	jmp .L21
.L22:
	mov esi, 64
	mov rdi, r15
	call rbp
	xorps xmm0, xmm0
	movups xmmword ptr [rax], xmm0
	movups xmmword ptr [rax + 16], xmm0
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 48], xmm0
	mov qword ptr [rsp + 32], rax
	lea rax, [rsp + 32]
	mov qword ptr [rsp + r13 + 160], 1
	mov qword ptr [rsp + r13 + 168], 1
	mov qword ptr [rsp + r13 + 176], 5
	mov qword ptr [rsp + r13 + 184], 0
.L23:
	add r13, 32
	cmp r13, 472
	je .L24
.L21:
	cmp byte ptr [rsp + r13 + 160], 0
	je .L22
	mov rax, qword ptr [rsp + r13 + 168]
	mov rbx, qword ptr [rsp + r13 + 176]
	inc rax
	mov qword ptr [rsp + r13 + 168], rax
	cmp rax, rbx
	jbe .L23
	cmp rax, 17
	mov ecx, 16
	cmovb rax, rcx
	dec rax
	bsr rcx, rax
	not ecx
	mov r14, -1
	shr r14, cl
	lea rsi, [8*r14 + 8]
	mov rdi, r15
	call rbp
	mov rbp, rax
	mov r15, qword ptr [rsp + r13 + 184]
	test r15, r15
	je .L25
	shl rbx, 3
	mov rdi, rbp
	mov rsi, r15
	mov rdx, rbx
	call qword ptr [rip + memcpy@GOTPCREL]
	mov rdi, r15
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
.L25:
	inc r14
	mov qword ptr [rsp + r13 + 184], rbp
	mov qword ptr [rsp + r13 + 176], r14
	mov rbp, qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov r15, qword ptr [rsp + 16]
	jmp .L23
.L24:
	mov rax, qword ptr [rsp + 8]
	mov r14, qword ptr [rax + 136]
	xor r13d, r13d
	xor ebp, ebp
	jmp .L26
.L27:
	mov eax, 1
	shl rax, cl
	add r13, rax
	inc rbp
	mov r15, qword ptr [rsp + 16]
.L26:
	mov rax, rbp
	movabs rcx, -6148914691236517205
	mul rcx
	shr edx
	and edx, -4
	lea eax, [rdx + 2*rdx]
	mov ecx, ebp
	sub ecx, eax
	shl ecx, 3
	lea rax, [rip + .Lanon]
	mov rbx, qword ptr [rcx + rax]
	add r13, 8
.L28:
	mov ecx, 3
	cmp rbx, 9
	jb .L29
	lea rax, [rbx - 1]
	shr rax, 3
	mov ecx, 127
	bsr rcx, rax
	add ecx, 4
	and ecx, 63
.L29:
	mov eax, 1
	shl rax, cl
	add rax, r13
	cmp rax, r12
	jbe .L30
	mov rax, rbx
	shr rax
	cmp rbx, 64
	mov rbx, rax
	jae .L28
	jmp .L31
.L30:
	mov rdi, r15
	mov rsi, rbx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov r15, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, rbx
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 32], r15
	lea rax, [rsp + 32]
	mov ecx, 3
	cmp rbx, 8
	jbe .L27
	dec rbx
	shr rbx, 3
	mov ecx, 127
	bsr rcx, rbx
	add ecx, 4
	and ecx, 63
	jmp .L27
.L31:
	mov rax, qword ptr [rsp]
	lea r15, [rax + 2*rax]
	mov ebx, dword ptr [r14 + 8*r15 + 20]
	mov r13, qword ptr [rsp + 64]
	mov rax, qword ptr [rsp + 8]
	cmp dword ptr [rax + 560], ebx
	je .L32
	mov r13, qword ptr [rsp + 152]
	cmp dword ptr [rax + 592], ebx
	je .L32
	mov r13, qword ptr [rsp + 144]
	cmp dword ptr [rax + 624], ebx
	je .L32
	mov r13, qword ptr [rsp + 136]
	cmp dword ptr [rax + 656], ebx
	je .L32
	mov r13, qword ptr [rsp + 128]
	cmp dword ptr [rax + 688], ebx
	je .L32
	mov r13, qword ptr [rsp + 112]
	cmp dword ptr [rax + 720], ebx
	je .L32
	mov r13, qword ptr [rsp + 104]
	cmp dword ptr [rax + 752], ebx
	jne .L33
.L32:
	cmp byte ptr [r13 + 28], 105
	jne .L34
	mov rax, qword ptr [r13 + 16]
	test rax, rax
	je .L35
	call rax
	mov edx, 3
	test rax, rax
	je .L36
	cmp dword ptr [rax], 430
	jne .L36
	lea r14, [r14 + 8*r15]
	movzx ecx, byte ptr [rax + 10]
	mov qword ptr [rsp + 56], rcx
	movzx r13d, byte ptr [rax + 15]
	movzx ebx, word ptr [rax + 6]
	mov qword ptr [rsp + 176], rax
	mov rdi, rax
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov ebp, dword ptr [r14 + 20]
	mov r15, qword ptr [rsp + 64]
	mov rax, qword ptr [rsp + 8]
	cmp dword ptr [rax + 560], ebp
	je .L37
	mov r15, qword ptr [rsp + 152]
	cmp dword ptr [rax + 592], ebp
	je .L37
	mov r15, qword ptr [rsp + 144]
	cmp dword ptr [rax + 624], ebp
	je .L37
	mov r15, qword ptr [rsp + 136]
	cmp dword ptr [rax + 656], ebp
	je .L37
	mov r15, qword ptr [rsp + 128]
	cmp dword ptr [rax + 688], ebp
	je .L37
	mov r15, qword ptr [rsp + 112]
	cmp dword ptr [rax + 720], ebp
	je .L37
	mov r15, qword ptr [rsp + 104]
	cmp dword ptr [rax + 752], ebp
	jne .L38
.L37:
	cmp byte ptr [r15 + 28], 105
	mov r14, qword ptr [rsp + 72]
	jne .L39
	mov rax, qword ptr [r15 + 16]
	test rax, rax
	je .L40
	call rax
	mov rcx, rax
	mov eax, 3
	test rcx, rcx
	je .L41
	cmp dword ptr [rcx], 430
	jne .L41
	mov rsi, qword ptr [rsp]
	inc rsi
	mov rax, qword ptr [rsp + 56]
	lea rax, [rax + 2*r13]
	shl ebx, 8
	or rbx, rax
	xor rbx, qword ptr [rsp + 80]
	movabs rdx, 1099511628211
	imul rbx, rdx
	movzx eax, byte ptr [rcx + 13]
	mov rdi, rcx
	movzx ecx, byte ptr [rcx + 19]
	lea rax, [rax + 2*rcx]
	mov qword ptr [rsp + 168], rdi
	movzx ecx, word ptr [rdi + 4]
	shl ecx, 8
	or rcx, rax
	xor rcx, rbx
	imul rcx, rdx
	mov qword ptr [rsp], rsi
	cmp rsi, qword ptr [rsp + 88]
	mov rbp, qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	jne .L20
.L19:
	mov qword ptr [rsp + 80], rcx
	mov r13, qword ptr [rsp + 8]
	mov rax, qword ptr [r13 + 520]
	movzx edx, byte ptr [rax + 25]
	lea rdi, [rip + .Lanon]
	xor r12d, r12d
	mov esi, 13
	mov r8d, 8192
	mov r9d, 8388608
	mov dword ptr [rsp + 16], edx
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov rcx, rax
	mov qword ptr [rsp + 24], rax
	mov rax, qword ptr [rsp + 120]
	mov qword ptr [rsp + 64], rcx
	mov qword ptr [rax], rcx
	xor ebp, ebp
	jmp .L42
.L43:
	mov eax, 1
	shl rax, cl
	add rbp, rax
	inc r12
.L42:
	mov rax, r12
	movabs rcx, -6148914691236517205
	mul rcx
	shr edx
	and edx, -4
	lea eax, [rdx + 2*rdx]
	mov ecx, r12d
	sub ecx, eax
	shl ecx, 3
	lea rax, [rip + .Lanon]
	mov r15, qword ptr [rcx + rax]
	add rbp, 8
.L44:
	mov ecx, 3
	cmp r15, 9
	jb .L45
	lea rax, [r15 - 1]
	shr rax, 3
	mov ecx, 127
	bsr rcx, rax
	add ecx, 4
	and ecx, 63
.L45:
	mov eax, 1
	shl rax, cl
	add rax, rbp
	cmp rax, qword ptr [rsp + 96]
	jbe .L46
	mov rax, r15
	shr rax
	cmp r15, 64
	mov r15, rax
	jae .L44
	jmp .L47
.L46:
	lea rdi, [rsp + 24]
	mov rsi, r15
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r15
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 184], rbx
	lea rax, [rsp + 184]
	mov ecx, 3
	cmp r15, 8
	jbe .L43
	dec r15
	shr r15, 3
	mov ecx, 127
	bsr rcx, r15
	add ecx, 4
	and ecx, 63
	jmp .L43
.L47:
	mov rax, qword ptr [r13 + 144]
	lea rcx, [r13 + 104]
	mov qword ptr [rsp + 56], rcx
	add rax, 2
	mov qword ptr [rsp], rax
	xor ebp, ebp
	jmp .L48
.L49:
	cmp rbp, qword ptr [rsp]
	lea rbp, [rbp + 1]
	mov r13, qword ptr [rsp + 8]
	je .L50
.L48:
	mov esi, 128
	lea rdi, [rsp + 24]
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov esi, 11
	mov r8d, 8192
	mov r9d, 8388608
	lea rdi, [rip + .Lanon]
	mov edx, dword ptr [rsp + 16]
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov r15, rax
	lea rax, [rsp + 188]
	xorps xmm2, xmm2
	movups xmmword ptr [rax], xmm2
	mov qword ptr [rax + 16], 0
	mov dword ptr [rbx], 1
	movups xmm0, xmmword ptr [rsp + 184]
	movups xmm1, xmmword ptr [rsp + 196]
	movups xmmword ptr [rbx + 4], xmm0
	movups xmmword ptr [rbx + 16], xmm1
	mov rax, qword ptr [rsp + 64]
	mov qword ptr [rbx + 32], rax
	mov qword ptr [rbx + 40], r15
	movups xmmword ptr [rbx + 48], xmm2
	movups xmmword ptr [rbx + 64], xmm2
	mov qword ptr [rbx + 80], 0
	mov byte ptr [rbx + 88], 1
	mov qword ptr [rbx + 96], 0
	mov byte ptr [rbx + 104], 1
	movups xmmword ptr [rbx + 112], xmm2
	mov qword ptr [rsp + 184], r15
	mov rbx, qword ptr [r13 + 120]
	cmp rbx, qword ptr [r13 + 104]
	jne .L51
	mov rdi, qword ptr [rsp + 56]
	call qword ptr [rip + alloc::raw_vec::RawVec<T,A>::grow_one@GOTPCREL]
.L51:
	mov rax, qword ptr [r13 + 112]
	mov qword ptr [rax + 8*rbx], r15
	inc rbx
	mov qword ptr [r13 + 120], rbx
	cmp rbp, 3
	jb .L49
	xor r13d, r13d
	xor r15d, r15d
	jmp .L52
.L53:
	mov eax, 1
	shl rax, cl
	add r13, rax
	inc r15
.L52:
	mov rax, r15
	movabs rcx, -6148914691236517205
	mul rcx
	shr edx
	and edx, -4
	lea eax, [rdx + 2*rdx]
	mov ecx, r15d
	sub ecx, eax
	shl ecx, 3
	lea rax, [rip + .Lanon]
	mov r12, qword ptr [rcx + rax]
	add r13, 8
.L54:
	mov ecx, 3
	cmp r12, 9
	jb .L55
	lea rax, [r12 - 1]
	shr rax, 3
	mov ecx, 127
	bsr rcx, rax
	add ecx, 4
	and ecx, 63
.L55:
	mov eax, 1
	shl rax, cl
	add rax, r13
	cmp rax, r14
	jbe .L56
	mov rax, r12
	shr rax
	cmp r12, 64
	mov r12, rax
	jae .L54
	jmp .L49
.L56:
	lea rdi, [rsp + 24]
	mov rsi, r12
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov rbx, rax
	mov rdi, rax
	xor esi, esi
	mov rdx, r12
	call qword ptr [rip + memset@GOTPCREL]
	mov qword ptr [rsp + 184], rbx
	lea rax, [rsp + 184]
	mov ecx, 3
	cmp r12, 8
	jbe .L53
	dec r12
	shr r12, 3
	mov ecx, 127
	bsr rcx, r12
	add ecx, 4
	and ecx, 63
	jmp .L53
.L50:
	lea rdi, [rip + .Lanon]
	mov esi, 8
	mov r8d, 8192
	mov r9d, 8388608
	mov edx, dword ptr [rsp + 16]
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov rcx, rax
	mov qword ptr [rsp + 32], rax
	movzx edx, byte ptr [r13 + 832]
	mov qword ptr [r13 + 808], 0
	movabs rax, -3750763034362895579
	mov qword ptr [r13 + 816], rax
	mov qword ptr [r13 + 824], 0
	mov rax, qword ptr [r13 + 144]
	test rax, rax
	je .L57
	mov qword ptr [rsp + 88], rcx
	lea rcx, [r13 + 808]
	mov qword ptr [rsp + 96], rcx
	mov rdi, qword ptr [r13 + 136]
	shl rax, 3
	lea rsi, [rax + 2*rax]
	xor dl, 1
	mov byte ptr [rsp + 56], dl
	lea rax, [r13 + 792]
	mov qword ptr [rsp + 72], rax
	xor r14d, r14d
	xor r15d, r15d
	xor r13d, r13d
.L58:
	mov rcx, qword ptr [rdi]
	mov rax, qword ptr [rcx + 152]
	test rax, rax
	je .L59
	mov rbp, qword ptr [rcx + 160]
	test rbp, rbp
	je .L59
	mov r12, qword ptr [rcx + 176]
	test r12, r12
	je .L59
	lea rcx, [rdi + 24]
	mov qword ptr [rsp], rcx
	mov qword ptr [rsp + 16], rsi
	mov esi, 1
	xor edx, edx
	call rax
	mov rbx, rax
	movzx eax, byte ptr [rsp + 56]
	mov byte ptr [rbx + 48], al
	mov rax, qword ptr [rsp + 8]
	mov rax, qword ptr [rax + 160]
	mov qword ptr [rax + r15], rbx
	mov rdi, rbx
	mov rsi, qword ptr [rsp + 72]
	mov edx, 1
	xor ecx, ecx
	xor r8d, r8d
	call rbp
	mov rdi, rbx
	mov rsi, qword ptr [rsp + 96]
	call r12
	mov rsi, qword ptr [rsp + 16]
	add r13, rax
	xor r14, rax
	movabs rax, 1099511628211
	imul r14, rax
	add r15, 8
	mov rdi, qword ptr [rsp]
	add rsi, -24
	jne .L58
	xor qword ptr [rsp + 80], r13
	mov r13, qword ptr [rsp + 8]
	mov rcx, qword ptr [rsp + 88]
	jmp .L60
.L57:
	xor r14d, r14d
.L60:
	mov qword ptr [rsp + 184], rcx
	lea rdi, [rsp + 184]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	cmp byte ptr [r13 + 833], 0
	jne .L61
.L62:
	mov rax, qword ptr [r13 + 136]
	mov qword ptr [rsp], rax
	mov rax, qword ptr [r13 + 144]
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 16], rax
	xor r13d, r13d
	xor r15d, r15d
	jmp .L63
.L64:
	shl rbp, 32
	or rbp, r12
	xor rbp, r14
	movabs rax, 1099511628211
	imul rbp, rax
	add r13, 24
	inc r15
	mov rdi, rbx
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov r14, rbp
.L63:
	cmp qword ptr [rsp + 16], r13
	je .L65
	mov rax, qword ptr [rsp]
	mov rax, qword ptr [rax + r13]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L66
	mov rcx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rcx + 160]
	mov rbx, qword ptr [rcx + 8*r15]
	mov rcx, qword ptr [rbx + 56]
	mov ebp, dword ptr [rcx + 4]
	mov r12d, dword ptr [rcx + 92]
	mov rdi, rbx
	call rax
	mov rdi, qword ptr [rbx + 32]
	test rdi, rdi
	je .L64
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L64
.L65:
	mov r12, qword ptr [rsp + 8]
	mov rax, qword ptr [r12 + 120]
	test rax, rax
	mov r13, qword ptr [rsp + 80]
	je .L67
	lea rbx, [rsp + 184]
	mov r15, qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L68:
	lea rcx, [rax - 1]
	mov qword ptr [r12 + 120], rcx
	mov rcx, qword ptr [r12 + 112]
	mov rax, qword ptr [rcx + 8*rax - 8]
	mov qword ptr [rsp + 184], rax
	mov rdi, rbx
	call r15
	mov rax, qword ptr [r12 + 120]
	test rax, rax
	jne .L68
.L67:
	mov rax, qword ptr [rsp + 120]
	mov rcx, qword ptr [rsp + 160]
	mov qword ptr [rax], rcx
	mov rcx, qword ptr [rsp + 64]
	mov rax, qword ptr [rcx + 168]
	mov qword ptr [r12 + 776], rax
	mov qword ptr [rsp + 184], rcx
	lea rdi, [rsp + 184]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rax, qword ptr [r12 + 808]
	rol rax, 32
	movabs rcx, 1099511628211
	imul r13, rcx
	xor r13, qword ptr [r12 + 816]
	xor r13, rax
	imul r13, rcx
	xor r13, r14
	imul r13, rcx
	mov rax, r13
	add rsp, 632
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L59:
	lea rdi, [rip + .Lanon]
	mov esi, 32
	call hotloops::study::alloc_churn::missing_callback
	jmp .L69
.L66:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L69:
	ud2
.L61:
	lea rsi, [rsp + 24]
	mov rdi, r13
	call hotloops::study::alloc_churn::record_contexts
	jmp .L62
.L35:
	mov edx, 2
	jmp .L36
.L40:
	mov eax, 2
	jmp .L41
.L39:
	mov eax, 1
.L41:
	mov rdx, qword ptr [r15]
	mov rcx, qword ptr [r15 + 8]
.L70:
	mov dword ptr [rsp + 32], eax
	mov dword ptr [rsp + 36], ebp
	mov qword ptr [rsp + 40], rdx
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L34:
	mov edx, 1
.L36:
	mov rax, qword ptr [r13]
	mov rcx, qword ptr [r13 + 8]
.L71:
	mov dword ptr [rsp + 32], edx
	mov dword ptr [rsp + 36], ebx
	mov qword ptr [rsp + 40], rax
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L33:
	xor edx, edx
	mov rax, qword ptr [rsp + 176]
	jmp .L71
.L38:
	xor eax, eax
	mov rdx, qword ptr [rsp + 168]
	jmp .L70
	mov rbx, rax
	jmp .L72
	mov rbx, rax
	xor r14d, r14d
.L72:
	mov rax, qword ptr [rsp]
	mov qword ptr [rax], r14
	mov rdi, rbx
	call _Unwind_Resume@PLT
	jmp .L73
	jmp .L73
	mov rbx, rax
	lea rdi, [rsp + 24]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	jmp .L74
	mov rbx, rax
	lea rdi, [rsp + 184]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	jmp .L75
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
	jmp .L73
	jmp .L73
	jmp .L73
	jmp .L73
.L73:
	mov rbx, rax
	jmp .L75
	mov rbx, rax
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L75:
	lea rdi, [rsp + 24]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L74:
	mov rdi, rbx
	call _Unwind_Resume@PLT
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]

hl_bthandler_palloc:
	push rax
	mov edi, 248
	call qword ptr [rip + hotloops::pg::mcxt::palloc0@GOTPCREL]
	movabs rcx, 1688871335100846
	mov qword ptr [rax], rcx
	mov dword ptr [rax + 8], 65541
	mov byte ptr [rax + 12], 0
	movabs rcx, 72340172838076673
	mov qword ptr [rax + 13], rcx
	mov byte ptr [rax + 21], 0
	mov dword ptr [rax + 22], 16843009
	mov byte ptr [rax + 26], 1
	mov word ptr [rax + 27], 0
	mov byte ptr [rax + 29], 3
	mov dword ptr [rax + 32], 0
	lea rcx, [rip + hotloops::pg::amapi::stubs::btbuild]
	mov qword ptr [rax + 40], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btbuildempty]
	mov qword ptr [rax + 48], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btinsert]
	mov qword ptr [rax + 56], rcx
	mov qword ptr [rax + 64], 0
	lea rcx, [rip + hotloops::pg::amapi::stubs::btbulkdelete]
	mov qword ptr [rax + 72], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btvacuumcleanup]
	mov qword ptr [rax + 80], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btcanreturn]
	mov qword ptr [rax + 88], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btcostestimate]
	mov qword ptr [rax + 96], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btgettreeheight]
	mov qword ptr [rax + 104], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btoptions]
	mov qword ptr [rax + 112], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btproperty]
	mov qword ptr [rax + 120], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btbuildphasename]
	mov qword ptr [rax + 128], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btvalidate]
	mov qword ptr [rax + 136], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btadjustmembers]
	mov qword ptr [rax + 144], rcx
	mov rcx, qword ptr [rip + hotloops::pg::amapi::scan::btbeginscan@GOTPCREL]
	mov qword ptr [rax + 152], rcx
	mov rcx, qword ptr [rip + hotloops::pg::amapi::scan::btrescan@GOTPCREL]
	mov qword ptr [rax + 160], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btgettuple]
	mov qword ptr [rax + 168], rcx
	mov rcx, qword ptr [rip + hotloops::pg::amapi::scan::btgetbitmap@GOTPCREL]
	mov qword ptr [rax + 176], rcx
	mov rcx, qword ptr [rip + hotloops::pg::amapi::scan::btendscan@GOTPCREL]
	mov qword ptr [rax + 184], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btmarkpos]
	mov qword ptr [rax + 192], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btrestrpos]
	mov qword ptr [rax + 200], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btestimateparallelscan]
	mov qword ptr [rax + 208], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btinitparallelscan]
	mov qword ptr [rax + 216], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::btparallelrescan]
	mov qword ptr [rax + 224], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::bttranslatestrategy]
	mov qword ptr [rax + 232], rcx
	lea rcx, [rip + hotloops::pg::amapi::stubs::bttranslatecmptype]
	mov qword ptr [rax + 240], rcx
	pop rcx
	ret
	call qword ptr [rip + core::panicking::panic_cannot_unwind@GOTPCREL]
