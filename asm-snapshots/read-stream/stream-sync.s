# hotloops asm snapshot of `read-stream/stream-sync`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_read_stream_stream_sync:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 440
	mov qword ptr [rsp + 56], rsi
	mov r10d, dword ptr [rsi + 28]
	mov rax, qword ptr [rdx]
	cmp rax, 1
	mov r12, rax
	adc r12, 0
	mov r15, qword ptr [rdx + 8]
	lea rsi, [r15 + 1]
	imul rsi, rax
	mov r13d, 32767
	sub r13, rax
	cmp r13, rsi
	cmovae r13, rsi
	mov rax, qword ptr [rdx + 16]
	cmp rax, r13
	cmovb r13, rax
	mov rax, qword ptr [rdx + 24]
	cmp rax, r13
	cmovb r13, rax
	cmp r13, 1
	adc r13, 0
	mov qword ptr [rsp + 136], r13
	lea rbp, [r13 + 1]
	mov qword ptr [rsp + 64], rbp
	mov rax, qword ptr [rcx + 8]
	cmp rax, rbp
	jae .L0
	mov qword ptr [rsp + 80], rax
	lea rax, [rsp + 136]
	mov qword ptr [rsp + 160], rax
	mov rax, qword ptr [rip + <usize as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 168], rax
	lea rcx, [rsp + 64]
	mov qword ptr [rsp + 176], rcx
	mov qword ptr [rsp + 184], rax
	lea rcx, [rsp + 80]
	mov qword ptr [rsp + 192], rcx
	mov qword ptr [rsp + 200], rax
	lea rsi, [rip + .Lanon]
	lea rbx, [rsp + 24]
	lea rdx, [rsp + 160]
	mov rdi, rbx
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov edi, 20
	mov rsi, rbx
	call qword ptr [rip + std::io::error::Error::new@GOTPCREL]
	mov r12, rax
	mov eax, 1
.L1:
	mov rdx, r12
	add rsp, 440
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L0:
	mov dword ptr [rsp + 100], r10d
	test r15, r15
	setne sil
	cmp r15, 1
	mov r10, r15
	adc r10, 0
	cmp r12, r13
	mov rax, r13
	cmovb rax, r12
	cmp byte ptr [rdx + 32], 0
	mov r11d, 1
	cmovne r11, rax
	imul rbx, r10, 56
	movabs rax, 164703072086692425
	cmp r15, rax
	mov qword ptr [rsp + 16], rbx
	jbe .L2
	xor r14d, r14d
.L3:
	mov rdi, r14
	mov rsi, qword ptr [rsp + 16]
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
.L2:
	mov qword ptr [rsp + 104], r11
	mov byte ptr [rsp + 4], sil
	mov qword ptr [rsp + 144], r8
	mov qword ptr [rsp + 152], r9
	mov qword ptr [rsp + 120], rcx
	mov qword ptr [rsp + 112], rdi
	mov rax, qword ptr [rsp + 56]
	movzx eax, byte ptr [rax + 32]
	mov byte ptr [rsp + 5], al
	movzx eax, byte ptr [rdx + 33]
	mov byte ptr [rsp + 6], al
	test rbx, rbx
	mov qword ptr [rsp + 48], r10
	je .L4
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov r14d, 8
	mov esi, 8
	mov rdi, rbx
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	mov r10, qword ptr [rsp + 48]
	test rax, rax
	je .L3
	mov qword ptr [rsp + 8], rax
	cmp r15, 2
	mov ebx, dword ptr [rsp + 100]
	jae .L5
	jmp .L6
.L4:
	mov eax, 8
	mov qword ptr [rsp + 8], rax
	cmp r15, 2
	mov ebx, dword ptr [rsp + 100]
	jb .L6
.L5:
	lea rdx, [r15 - 1]
	lea rsi, [r15 - 2]
	mov ecx, edx
	and ecx, 3
	mov rax, qword ptr [rsp + 8]
	cmp rsi, 3
	jb .L7
	and rdx, -4
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmm1, xmmword ptr [rip + .Lanon+16]
	movups xmm2, xmmword ptr [rip + .Lanon]
	mov esi, 4294967295
	mov rax, qword ptr [rsp + 8]
.L8:
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 16], xmm1
	movups xmmword ptr [rax], xmm2
	mov qword ptr [rax + 48], rsi
	movups xmmword ptr [rax + 56], xmm2
	movups xmmword ptr [rax + 72], xmm1
	movups xmmword ptr [rax + 88], xmm0
	mov qword ptr [rax + 104], rsi
	movups xmmword ptr [rax + 112], xmm2
	movups xmmword ptr [rax + 128], xmm1
	movups xmmword ptr [rax + 144], xmm0
	mov qword ptr [rax + 160], rsi
	movups xmmword ptr [rax + 168], xmm2
	movups xmmword ptr [rax + 184], xmm1
	movups xmmword ptr [rax + 200], xmm0
	mov qword ptr [rax + 216], rsi
	add rax, 224
	add rdx, -4
	jne .L8
	test rcx, rcx
	je .L6
.L7:
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmm1, xmmword ptr [rip + .Lanon+16]
	movups xmm2, xmmword ptr [rip + .Lanon]
	mov edx, 4294967295
.L9:
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 16], xmm1
	movups xmmword ptr [rax], xmm2
	mov qword ptr [rax + 48], rdx
	add rax, 56
	dec rcx
	jne .L9
.L6:
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmmword ptr [rax + 32], xmm0
	movups xmm0, xmmword ptr [rip + .Lanon+16]
	movups xmmword ptr [rax + 16], xmm0
	movdqu xmm0, xmmword ptr [rip + .Lanon]
	movdqu xmmword ptr [rax], xmm0
	mov ecx, 4294967295
	mov qword ptr [rax + 48], rcx
	lea r14, [8*r10]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov esi, 8
	mov qword ptr [rsp + 128], r14
	mov rdi, r14
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L10
	mov r14, rax
	cmp r15, 2
	jb .L11
	lea rdx, [8*r15 - 8]
	mov rdi, r14
	mov esi, 255
	call qword ptr [rip + memset@GOTPCREL]
	lea rax, [r14 + 8*r15]
	add rax, -8
.L11:
	mov qword ptr [rax], -1
	lea r15, [4*rbp]
	mov rax, rbp
	shr rax, 62
	setne al
	movabs rcx, 9223372036854775804
	cmp r15, rcx
	seta cl
	or cl, al
	je .L12
	xor edi, edi
.L13:
	mov rsi, r15
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
	jmp .L14
.L12:
	test r15, r15
	je .L15
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov esi, 4
	mov rdi, r15
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	mov edi, 4
	test rax, rax
	jne .L16
	jmp .L13
.L15:
	mov eax, 4
.L16:
	movzx ecx, byte ptr [rsp + 5]
	xor cl, 1
	movzx esi, byte ptr [rsp + 4]
	and sil, cl
	cmp rbp, 2
	jb .L17
	lea rdx, [r15 - 4]
	mov rdi, rax
	mov byte ptr [rsp + 4], sil
	mov esi, 255
	mov r13, rax
	call qword ptr [rip + memset@GOTPCREL]
	mov rax, r13
	movzx esi, byte ptr [rsp + 4]
	mov dword ptr [r13 + r15 - 4], -1
	mov r13, qword ptr [rsp + 136]
	mov rdx, qword ptr [rsp + 64]
	jmp .L18
.L17:
	xor edx, edx
.L18:
	mov r10, qword ptr [rsp + 112]
	mov rcx, qword ptr [rsp + 120]
	mov r8, qword ptr [rsp + 48]
	mov r9, qword ptr [rsp + 104]
	pxor xmm0, xmm0
	movdqu xmmword ptr [rsp + 200], xmm0
	movdqu xmmword ptr [rsp + 184], xmm0
	movdqu xmmword ptr [rsp + 168], xmm0
	movdqu xmmword ptr [rsp + 344], xmm0
	movdqu xmmword ptr [rsp + 360], xmm0
	movdqu xmmword ptr [rsp + 376], xmm0
	pcmpeqd xmm0, xmm0
	movdqa xmmword ptr [rsp + 416], xmm0
	mov qword ptr [rsp + 160], 0
	mov qword ptr [rsp + 216], r9
	mov rdi, qword ptr [rsp + 8]
	mov qword ptr [rsp + 224], rdi
	mov qword ptr [rsp + 232], r8
	mov qword ptr [rsp + 240], r14
	mov qword ptr [rsp + 248], r8
	mov qword ptr [rsp + 256], rax
	mov qword ptr [rsp + 264], rbp
	mov qword ptr [rsp + 272], r8
	mov qword ptr [rsp + 280], r12
	mov qword ptr [rsp + 288], r13
	mov qword ptr [rsp + 296], rdx
	mov qword ptr [rsp + 304], 0
	mov qword ptr [rsp + 312], r9
	mov qword ptr [rsp + 320], r9
	mov qword ptr [rsp + 328], 0
	mov dword ptr [rsp + 336], 1
	mov dword ptr [rsp + 340], ebx
	mov r14, qword ptr [rsp + 56]
	mov qword ptr [rsp + 392], r14
	lea rdx, [rsp + 7]
	mov qword ptr [rsp + 400], rdx
	mov qword ptr [rsp + 408], rcx
	mov byte ptr [rsp + 432], 0
	mov byte ptr [rsp + 433], sil
	movzx ecx, byte ptr [rsp + 6]
	mov byte ptr [rsp + 434], cl
	cmp ebx, 2
	jb .L19
	lea rcx, [r10 + 24]
	mov qword ptr [rsp + 16], rcx
	mov r13, qword ptr [r10 + 56]
	mov rax, qword ptr [r10 + 96]
	mov qword ptr [rsp + 8], rax
	mov rbp, qword ptr [r14 + 8]
	mov r15, qword ptr [r14 + 16]
	dec ebx
	xor r12d, r12d
.L20:
	lea rdi, [rsp + 24]
	lea rsi, [rsp + 160]
	call qword ptr [rip + hotloops::pg::read_stream::ReadStream<M>::next_buffer@GOTPCREL]
	cmp byte ptr [rsp + 24], 0
	jne .L21
	mov r14, qword ptr [rsp + 40]
	test r14, r14
	je .L22
	mov ecx, dword ptr [rsp + 32]
	mov rdi, r13
	mov rsi, rbp
	mov rdx, r15
	mov r8, r14
	call hotloops::study::read_stream::check_page_header
	test rax, rax
	jne .L23
	mov rdi, r14
	mov rsi, qword ptr [rsp + 16]
	mov rdx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rsp + 144]
	mov r8, qword ptr [rsp + 152]
	call qword ptr [rip + hl_read_stream_check_page@GOTPCREL]
	add r12, rax
	dec ebx
	jne .L20
	mov r14, qword ptr [rsp + 56]
	jmp .L24
.L19:
	xor r12d, r12d
.L24:
	lea rdi, [rsp + 24]
	lea rsi, [rsp + 160]
	call qword ptr [rip + hotloops::pg::read_stream::ReadStream<M>::next_buffer@GOTPCREL]
	cmp byte ptr [rsp + 24], 0
	je .L25
.L21:
	mov r12, qword ptr [rsp + 32]
	jmp .L26
.L25:
	cmp qword ptr [rsp + 40], 0
	je .L27
	movdqu xmm0, xmmword ptr [r14 + 8]
	movdqu xmmword ptr [rsp + 64], xmm0
	lea rax, [rsp + 64]
	mov qword ptr [rsp + 80], rax
	mov rax, qword ptr [rip + <std::path::Display as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 88], rax
	lea rsi, [rip + .Lanon]
	lea rdi, [rsp + 24]
	lea rdx, [rsp + 80]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov r14, qword ptr [rsp + 24]
	mov rbx, qword ptr [rsp + 32]
	mov r15, qword ptr [rsp + 40]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov edi, 24
	mov esi, 8
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	jne .L28
	mov edi, 8
	mov esi, 24
	call qword ptr [rip + alloc::alloc::handle_alloc_error@GOTPCREL]
	jmp .L14
.L22:
	mov qword ptr [rsp + 64], rbp
	mov qword ptr [rsp + 72], r15
	lea rax, [rsp + 64]
	mov qword ptr [rsp + 80], rax
	mov rax, qword ptr [rip + <std::path::Display as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 88], rax
	lea rsi, [rip + .Lanon]
	lea rdi, [rsp + 24]
	lea rdx, [rsp + 80]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov r14, qword ptr [rsp + 24]
	mov rbx, qword ptr [rsp + 32]
	mov r15, qword ptr [rsp + 40]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov edi, 24
	mov esi, 8
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L29
.L28:
	mov qword ptr [rax], r14
	mov qword ptr [rax + 8], rbx
	mov qword ptr [rax + 16], r15
	lea rdx, [rip + .Lanon]
	mov edi, 40
	mov rsi, rax
	call qword ptr [rip + <std::io::error::Error>::_new@GOTPCREL]
.L23:
	mov r12, rax
.L26:
	mov eax, 1
.L30:
	mov rcx, qword ptr [rsp + 496]
	movdqu xmm0, xmmword ptr [rcx]
	movdqu xmm1, xmmword ptr [rcx + 16]
	movdqu xmm2, xmmword ptr [rcx + 32]
	movdqu xmm3, xmmword ptr [rcx + 48]
	paddq xmm0, xmmword ptr [rsp + 160]
	paddq xmm1, xmmword ptr [rsp + 176]
	movdqu xmmword ptr [rcx], xmm0
	movdqu xmmword ptr [rcx + 16], xmm1
	paddq xmm2, xmmword ptr [rsp + 192]
	movdqu xmmword ptr [rcx + 32], xmm2
	movdqa xmm0, xmmword ptr [rsp + 208]
	movdqa xmm1, xmmword ptr [rip + .L31]
	movdqa xmm2, xmm3
	pxor xmm2, xmm1
	pxor xmm1, xmm0
	movdqa xmm4, xmm1
	pcmpgtd xmm4, xmm2
	pshufd xmm5, xmm4, 160
	pcmpeqd xmm1, xmm2
	pshufd xmm1, xmm1, 245
	pand xmm1, xmm5
	pshufd xmm2, xmm4, 245
	por xmm2, xmm1
	pand xmm0, xmm2
	pandn xmm2, xmm3
	por xmm2, xmm0
	movdqu xmmword ptr [rcx + 48], xmm2
	mov rcx, qword ptr [rsp + 232]
	test rcx, rcx
	mov rbx, rax
	je .L32
	mov rdi, qword ptr [rsp + 224]
	imul rsi, rcx, 56
	mov edx, 8
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
	mov rax, rbx
.L32:
	mov rsi, qword ptr [rsp + 248]
	test rsi, rsi
	je .L33
	mov rdi, qword ptr [rsp + 240]
	shl rsi, 3
	mov edx, 8
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
	mov rax, rbx
.L33:
	mov rsi, qword ptr [rsp + 264]
	test rsi, rsi
	je .L1
	mov rdi, qword ptr [rsp + 256]
	shl rsi, 2
	mov edx, 4
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
	mov rax, rbx
	jmp .L1
.L27:
	xor eax, eax
	jmp .L30
.L29:
	mov edi, 8
	mov esi, 24
	call qword ptr [rip + alloc::alloc::handle_alloc_error@GOTPCREL]
	jmp .L14
.L10:
	mov edi, 8
	mov rsi, qword ptr [rsp + 128]
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
.L14:
	ud2
	jmp .L34
	mov r15, rax
	jmp .L35
.L34:
	mov r15, rax
	lea rdi, [rsp + 160]
	call core::ptr::drop_in_place<hotloops::pg::read_stream::ReadStream<hotloops::pg::read_stream::SyncIo>>
	mov rdi, r15
	call _Unwind_Resume@PLT
	jmp .L36
.L36:
	mov r15, rax
	test r14, r14
	je .L37
	mov edx, 1
	mov rdi, rbx
	mov rsi, r14
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
.L37:
	lea rdi, [rsp + 160]
	call core::ptr::drop_in_place<hotloops::pg::read_stream::ReadStream<hotloops::pg::read_stream::SyncIo>>
	mov rdi, r15
	call _Unwind_Resume@PLT
	mov r15, rax
	mov edx, 8
	mov rdi, r14
	mov rsi, qword ptr [rsp + 128]
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
.L35:
	mov rsi, qword ptr [rsp + 16]
	mov edx, 8
	mov rdi, qword ptr [rsp + 8]
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
	mov rdi, r15
	call _Unwind_Resume@PLT

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
