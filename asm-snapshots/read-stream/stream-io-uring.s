# hotloops asm snapshot of `read-stream/stream-io-uring`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_read_stream_stream_io_uring:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 440
	mov qword ptr [rsp + 152], r9
	mov r12, qword ptr [rdx + 8]
	cmp r12, 1
	mov r15, r12
	adc r15, 0
	mov qword ptr [rcx + 16], 0
	cmp r15, qword ptr [rcx]
	ja .L0
	xor eax, eax
	lea rbx, [8*rax]
	add rbx, qword ptr [rcx + 8]
	cmp r12, 2
	jb .L1
.L2:
	lea r10, [r12 - 1]
	lea r11, [r12 - 2]
	mov r9d, r10d
	and r9d, 7
	cmp r11, 7
	jb .L3
	and r10, -8
.L4:
	mov dword ptr [rbx], 0
	mov dword ptr [rbx + 8], 0
	mov dword ptr [rbx + 16], 0
	mov dword ptr [rbx + 24], 0
	mov dword ptr [rbx + 32], 0
	mov dword ptr [rbx + 40], 0
	mov dword ptr [rbx + 48], 0
	mov dword ptr [rbx + 56], 0
	add rbx, 64
	add r10, -8
	jne .L4
	test r9, r9
	je .L5
.L3:
	mov dword ptr [rbx], 0
	add rbx, 8
	dec r9
	jne .L3
.L5:
	add rax, r15
	dec rax
.L1:
	mov dword ptr [rbx], 0
	inc rax
	mov qword ptr [rcx + 16], rax
	mov rax, qword ptr [rdx]
	cmp rax, 1
	mov r13, rax
	adc r13, 0
	mov r10d, dword ptr [rsi + 28]
	lea r9, [r12 + 1]
	imul r9, rax
	mov ebp, 32767
	sub rbp, rax
	cmp rbp, r9
	cmovae rbp, r9
	mov rax, qword ptr [rdx + 16]
	cmp rax, rbp
	cmovb rbp, rax
	mov rax, qword ptr [rdx + 24]
	cmp rax, rbp
	cmovb rbp, rax
	cmp rbp, 1
	adc rbp, 0
	mov qword ptr [rsp + 144], rbp
	lea r14, [rbp + 1]
	mov qword ptr [rsp + 56], r14
	mov rax, qword ptr [r8 + 8]
	cmp rax, r14
	jae .L6
	mov qword ptr [rsp + 72], rax
	lea rax, [rsp + 144]
	mov qword ptr [rsp + 160], rax
	mov rax, qword ptr [rip + <usize as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 168], rax
	lea rcx, [rsp + 56]
	mov qword ptr [rsp + 176], rcx
	mov qword ptr [rsp + 184], rax
	lea rcx, [rsp + 72]
	mov qword ptr [rsp + 192], rcx
	mov qword ptr [rsp + 200], rax
	lea rsi, [rip + .Lanon]
	lea rbx, [rsp + 16]
	lea rdx, [rsp + 160]
	mov rdi, rbx
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov edi, 20
	mov rsi, rbx
	call qword ptr [rip + std::io::error::Error::new@GOTPCREL]
	mov r15, rax
	mov eax, 1
.L7:
	mov rdx, r15
	add rsp, 440
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L6:
	cmp r13, rbp
	mov rax, rbp
	cmovb rax, r13
	cmp byte ptr [rdx + 32], 0
	mov r11d, 1
	cmovne r11, rax
	mov r9, r15
	imul r15, r15, 56
	movabs rax, 164703072086692425
	cmp r12, rax
	mov qword ptr [rsp + 48], r15
	jbe .L8
	xor ebx, ebx
.L9:
	mov rdi, rbx
	mov rsi, qword ptr [rsp + 48]
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
.L8:
	mov qword ptr [rsp + 96], r11
	mov qword ptr [rsp + 136], r9
	mov dword ptr [rsp + 92], r10d
	mov qword ptr [rsp + 40], rsi
	mov qword ptr [rsp + 120], rcx
	mov qword ptr [rsp + 112], r8
	mov qword ptr [rsp + 104], rdi
	movzx eax, byte ptr [rdx + 33]
	mov byte ptr [rsp + 7], al
	test r15, r15
	je .L10
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov ebx, 8
	mov esi, 8
	mov rdi, r15
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L9
	mov qword ptr [rsp + 8], rax
	cmp r12, 2
	mov rbx, qword ptr [rsp + 136]
	jae .L11
	jmp .L12
.L10:
	mov eax, 8
	mov qword ptr [rsp + 8], rax
	cmp r12, 2
	mov rbx, qword ptr [rsp + 136]
	jb .L12
.L11:
	lea rdx, [r12 - 1]
	lea rsi, [r12 - 2]
	mov ecx, edx
	and ecx, 3
	mov rax, qword ptr [rsp + 8]
	cmp rsi, 3
	jb .L13
	and rdx, -4
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmm1, xmmword ptr [rip + .Lanon+16]
	movups xmm2, xmmword ptr [rip + .Lanon]
	mov esi, 4294967295
	mov rax, qword ptr [rsp + 8]
.L14:
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
	jne .L14
	test rcx, rcx
	je .L12
.L13:
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmm1, xmmword ptr [rip + .Lanon+16]
	movups xmm2, xmmword ptr [rip + .Lanon]
	mov edx, 4294967295
.L15:
	movups xmmword ptr [rax + 32], xmm0
	movups xmmword ptr [rax + 16], xmm1
	movups xmmword ptr [rax], xmm2
	mov qword ptr [rax + 48], rdx
	add rax, 56
	dec rcx
	jne .L15
.L12:
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmmword ptr [rax + 32], xmm0
	movups xmm0, xmmword ptr [rip + .Lanon+16]
	movups xmmword ptr [rax + 16], xmm0
	movdqu xmm0, xmmword ptr [rip + .Lanon]
	movdqu xmmword ptr [rax], xmm0
	mov ecx, 4294967295
	mov qword ptr [rax + 48], rcx
	lea r15, [8*rbx]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov esi, 8
	mov qword ptr [rsp + 128], r15
	mov rdi, r15
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L16
	mov r15, rax
	cmp r12, 2
	jb .L17
	lea rdx, [8*r12 - 8]
	mov rdi, r15
	mov esi, 255
	call qword ptr [rip + memset@GOTPCREL]
	lea rax, [r15 + 8*r12]
	add rax, -8
.L17:
	mov qword ptr [rax], -1
	lea rbx, [4*r14]
	mov rax, r14
	shr rax, 62
	setne al
	movabs rcx, 9223372036854775804
	cmp rbx, rcx
	seta cl
	or cl, al
	je .L18
	xor r12d, r12d
.L19:
	mov rdi, r12
	mov rsi, rbx
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
	jmp .L20
.L18:
	test rbx, rbx
	je .L21
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov r12d, 4
	mov esi, 4
	mov rdi, rbx
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L19
	cmp r14, 2
	jb .L22
.L23:
	lea rdx, [rbx - 4]
	mov rdi, rax
	mov esi, 255
	mov r12, rax
	call qword ptr [rip + memset@GOTPCREL]
	mov rax, r12
	mov dword ptr [r12 + rbx - 4], -1
	mov rbp, qword ptr [rsp + 144]
	mov rsi, qword ptr [rsp + 56]
	jmp .L24
.L21:
	mov eax, 4
	cmp r14, 2
	jae .L23
.L22:
	xor esi, esi
.L24:
	mov r9, qword ptr [rsp + 104]
	mov rcx, qword ptr [rsp + 112]
	mov rdx, qword ptr [rsp + 120]
	mov r8, qword ptr [rsp + 96]
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
	mov qword ptr [rsp + 216], r8
	mov rdi, qword ptr [rsp + 8]
	mov qword ptr [rsp + 224], rdi
	mov rdi, qword ptr [rsp + 136]
	mov qword ptr [rsp + 232], rdi
	mov qword ptr [rsp + 240], r15
	mov qword ptr [rsp + 248], rdi
	mov qword ptr [rsp + 256], rax
	mov qword ptr [rsp + 264], r14
	mov qword ptr [rsp + 272], rdi
	mov qword ptr [rsp + 280], r13
	mov qword ptr [rsp + 288], rbp
	mov qword ptr [rsp + 296], rsi
	mov qword ptr [rsp + 304], 0
	mov qword ptr [rsp + 312], r8
	mov qword ptr [rsp + 320], r8
	mov qword ptr [rsp + 328], 0
	mov dword ptr [rsp + 336], 1
	mov r14d, dword ptr [rsp + 92]
	mov dword ptr [rsp + 340], r14d
	mov rbx, qword ptr [rsp + 40]
	mov qword ptr [rsp + 392], rbx
	mov qword ptr [rsp + 400], rdx
	mov qword ptr [rsp + 408], rcx
	mov word ptr [rsp + 432], 0
	movzx ecx, byte ptr [rsp + 7]
	mov byte ptr [rsp + 434], cl
	cmp r14d, 2
	jb .L25
	lea rcx, [r9 + 24]
	mov qword ptr [rsp + 48], rcx
	mov r13, qword ptr [r9 + 56]
	mov rax, qword ptr [r9 + 96]
	mov qword ptr [rsp + 8], rax
	mov rbp, qword ptr [rbx + 8]
	mov rbx, qword ptr [rbx + 16]
	dec r14d
	xor r15d, r15d
.L26:
	lea rdi, [rsp + 16]
	lea rsi, [rsp + 160]
	call qword ptr [rip + hotloops::pg::read_stream::ReadStream<M>::next_buffer@GOTPCREL]
	cmp byte ptr [rsp + 16], 0
	jne .L27
	mov r12, qword ptr [rsp + 32]
	test r12, r12
	je .L28
	mov ecx, dword ptr [rsp + 24]
	mov rdi, r13
	mov rsi, rbp
	mov rdx, rbx
	mov r8, r12
	call hotloops::study::read_stream::check_page_header
	test rax, rax
	jne .L29
	mov rdi, r12
	mov rsi, qword ptr [rsp + 48]
	mov rdx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rsp + 152]
	mov r8, qword ptr [rsp + 496]
	call qword ptr [rip + hl_read_stream_check_page@GOTPCREL]
	add r15, rax
	dec r14d
	jne .L26
	mov rbx, qword ptr [rsp + 40]
	jmp .L30
.L25:
	xor r15d, r15d
.L30:
	lea rdi, [rsp + 16]
	lea rsi, [rsp + 160]
	call qword ptr [rip + hotloops::pg::read_stream::ReadStream<M>::next_buffer@GOTPCREL]
	cmp byte ptr [rsp + 16], 0
	je .L31
.L27:
	mov r15, qword ptr [rsp + 24]
	jmp .L32
.L31:
	cmp qword ptr [rsp + 32], 0
	je .L33
	movdqu xmm0, xmmword ptr [rbx + 8]
	movdqu xmmword ptr [rsp + 56], xmm0
	lea rax, [rsp + 56]
	mov qword ptr [rsp + 72], rax
	mov rax, qword ptr [rip + <std::path::Display as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 80], rax
	lea rsi, [rip + .Lanon]
	lea rdi, [rsp + 16]
	lea rdx, [rsp + 72]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov r15, qword ptr [rsp + 16]
	mov r14, qword ptr [rsp + 24]
	mov rbx, qword ptr [rsp + 32]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov edi, 24
	mov esi, 8
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	jne .L34
	mov edi, 8
	mov esi, 24
	call qword ptr [rip + alloc::alloc::handle_alloc_error@GOTPCREL]
	jmp .L20
.L28:
	mov qword ptr [rsp + 56], rbp
	mov qword ptr [rsp + 64], rbx
	lea rax, [rsp + 56]
	mov qword ptr [rsp + 72], rax
	mov rax, qword ptr [rip + <std::path::Display as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 80], rax
	lea rsi, [rip + .Lanon]
	lea rdi, [rsp + 16]
	lea rdx, [rsp + 72]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov r15, qword ptr [rsp + 16]
	mov r14, qword ptr [rsp + 24]
	mov rbx, qword ptr [rsp + 32]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov edi, 24
	mov esi, 8
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L35
.L34:
	mov qword ptr [rax], r15
	mov qword ptr [rax + 8], r14
	mov qword ptr [rax + 16], rbx
	lea rdx, [rip + .Lanon]
	mov edi, 40
	mov rsi, rax
	call qword ptr [rip + <std::io::error::Error>::_new@GOTPCREL]
	mov r15, rax
.L32:
	mov ebx, 1
.L36:
	mov rax, qword ptr [rsp + 504]
	movdqu xmm0, xmmword ptr [rax]
	movdqu xmm1, xmmword ptr [rax + 16]
	movdqu xmm2, xmmword ptr [rax + 32]
	movdqu xmm3, xmmword ptr [rax + 48]
	paddq xmm0, xmmword ptr [rsp + 160]
	movdqu xmmword ptr [rax], xmm0
	paddq xmm1, xmmword ptr [rsp + 176]
	movdqu xmmword ptr [rax + 16], xmm1
	paddq xmm2, xmmword ptr [rsp + 192]
	movdqu xmmword ptr [rax + 32], xmm2
	movdqa xmm0, xmmword ptr [rsp + 208]
	movdqa xmm1, xmmword ptr [rip + .L37]
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
	movdqu xmmword ptr [rax + 48], xmm2
	lea rdi, [rsp + 160]
	call core::ptr::drop_in_place<hotloops::pg::read_stream::ReadStream<hotloops::pg::read_stream::IoUringIo>>
	mov rax, rbx
	jmp .L7
.L29:
	mov ebx, 1
	mov r15, rax
	jmp .L36
.L33:
	xor ebx, ebx
	jmp .L36
.L0:
	mov qword ptr [rsp + 40], rsi
	mov rbx, rcx
	mov ecx, 4
	mov r14, r8
	mov r8d, 8
	mov r13, rdi
	mov rdi, rbx
	xor esi, esi
	mov rbp, rdx
	mov rdx, r15
	call alloc::raw_vec::RawVecInner<A>::reserve::do_reserve_and_handle
	mov rdx, rbp
	mov rcx, rbx
	mov rsi, qword ptr [rsp + 40]
	mov r8, r14
	mov rdi, r13
	mov rax, qword ptr [rbx + 16]
	lea rbx, [8*rax]
	add rbx, qword ptr [rcx + 8]
	cmp r12, 2
	jae .L2
	jmp .L1
.L35:
	mov edi, 8
	mov esi, 24
	call qword ptr [rip + alloc::alloc::handle_alloc_error@GOTPCREL]
	jmp .L20
.L16:
	mov edi, 8
	mov rsi, qword ptr [rsp + 128]
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
.L20:
	ud2
	mov rbx, rax
	jmp .L38
	mov rbx, rax
	jmp .L39
	mov rbx, rax
	jmp .L38
	jmp .L40
.L40:
	mov rbx, rax
	test r15, r15
	je .L38
	mov edx, 1
	mov rdi, r14
	mov rsi, r15
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
.L38:
	lea rdi, [rsp + 160]
	call core::ptr::drop_in_place<hotloops::pg::read_stream::ReadStream<hotloops::pg::read_stream::IoUringIo>>
	mov rdi, rbx
	call _Unwind_Resume@PLT
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
	mov rbx, rax
	mov edx, 8
	mov rdi, r15
	mov rsi, qword ptr [rsp + 128]
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
.L39:
	mov edx, 8
	mov rdi, qword ptr [rsp + 8]
	mov rsi, qword ptr [rsp + 48]
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
	mov rdi, rbx
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
