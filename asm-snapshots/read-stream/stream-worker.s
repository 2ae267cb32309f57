# hotloops asm snapshot of `read-stream/stream-worker`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_read_stream_stream_worker:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 488
	mov qword ptr [rsp + 152], r9
	mov r12, r8
	mov rbx, rdx
	mov r14, rsi
	mov qword ptr [rsp + 48], rdi
	mov rbp, qword ptr [rdx + 8]
	cmp rbp, 1
	mov r13, rbp
	adc r13, 0
	lea rdi, [rsp + 440]
	mov rsi, rcx
	mov rdx, r13
	call qword ptr [rip + hotloops::pg::read_stream::WorkerIo::new@GOTPCREL]
	mov rax, qword ptr [rbx]
	cmp rax, 1
	mov rdx, rax
	adc rdx, 0
	mov qword ptr [rsp + 120], r14
	mov ecx, dword ptr [r14 + 28]
	mov dword ptr [rsp + 100], ecx
	lea rcx, [rbp + 1]
	imul rcx, rax
	mov r15d, 32767
	sub r15, rax
	cmp r15, rcx
	cmovae r15, rcx
	mov rax, qword ptr [rbx + 16]
	cmp rax, r15
	cmovb r15, rax
	mov rax, qword ptr [rbx + 24]
	cmp rax, r15
	cmovb r15, rax
	cmp r15, 1
	adc r15, 0
	mov qword ptr [rsp + 128], r15
	lea r14, [r15 + 1]
	mov qword ptr [rsp + 64], r14
	mov qword ptr [rsp + 56], r12
	mov rax, qword ptr [r12 + 8]
	cmp rax, r14
	jae .L0
	mov qword ptr [rsp + 80], rax
	lea rax, [rsp + 128]
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
	lea rdi, [rsp + 16]
	lea rdx, [rsp + 160]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	lea rsi, [rsp + 16]
	mov edi, 20
	call qword ptr [rip + std::io::error::Error::new@GOTPCREL]
	mov r15, rax
	mov ebx, 1
.L1:
	mov rax, qword ptr [rsp + 472]
	lock dec	qword ptr [rax]
	jne .L2
	lea rdi, [rsp + 472]
	call qword ptr [rip + alloc::sync::Arc<T,A>::drop_slow@GOTPCREL]
.L2:
	lea rdi, [rsp + 440]
	call core::ptr::drop_in_place<alloc::vec::Vec<hotloops::pg::read_stream::Job>>
	mov rax, rbx
	mov rdx, r15
	add rsp, 488
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L0:
	cmp rdx, r15
	mov rax, r15
	cmovb rax, rdx
	cmp byte ptr [rbx + 32], 0
	mov ecx, 1
	cmovne rcx, rax
	imul r12, r13, 56
	movabs rax, 164703072086692425
	cmp rbp, rax
	mov qword ptr [rsp + 112], r12
	jbe .L3
	xor ebx, ebx
.L4:
	mov rdi, rbx
	mov rsi, qword ptr [rsp + 112]
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
	jmp .L5
.L3:
	mov qword ptr [rsp + 136], rcx
	mov qword ptr [rsp + 104], rdx
	movzx eax, byte ptr [rbx + 33]
	mov byte ptr [rsp + 15], al
	test r12, r12
	je .L6
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov ebx, 8
	mov esi, 8
	mov rdi, r12
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L4
	mov qword ptr [rsp + 40], rax
	cmp rbp, 2
	jae .L7
	jmp .L8
.L6:
	mov eax, 8
	mov qword ptr [rsp + 40], rax
	cmp rbp, 2
	jb .L8
.L7:
	lea rdx, [rbp - 1]
	lea rsi, [rbp - 2]
	mov ecx, edx
	and ecx, 3
	mov rax, qword ptr [rsp + 40]
	cmp rsi, 3
	jb .L9
	and rdx, -4
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movdqu xmm1, xmmword ptr [rip + .Lanon+16]
	movdqu xmm2, xmmword ptr [rip + .Lanon]
	mov esi, 4294967295
	mov rax, qword ptr [rsp + 40]
.L10:
	movups xmmword ptr [rax + 32], xmm0
	movdqu xmmword ptr [rax + 16], xmm1
	movdqu xmmword ptr [rax], xmm2
	mov qword ptr [rax + 48], rsi
	movdqu xmmword ptr [rax + 56], xmm2
	movdqu xmmword ptr [rax + 72], xmm1
	movups xmmword ptr [rax + 88], xmm0
	mov qword ptr [rax + 104], rsi
	movdqu xmmword ptr [rax + 112], xmm2
	movdqu xmmword ptr [rax + 128], xmm1
	movups xmmword ptr [rax + 144], xmm0
	mov qword ptr [rax + 160], rsi
	movdqu xmmword ptr [rax + 168], xmm2
	movdqu xmmword ptr [rax + 184], xmm1
	movups xmmword ptr [rax + 200], xmm0
	mov qword ptr [rax + 216], rsi
	add rax, 224
	add rdx, -4
	jne .L10
	test rcx, rcx
	je .L8
.L9:
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movdqu xmm1, xmmword ptr [rip + .Lanon+16]
	movdqu xmm2, xmmword ptr [rip + .Lanon]
	mov edx, 4294967295
.L11:
	movups xmmword ptr [rax + 32], xmm0
	movdqu xmmword ptr [rax + 16], xmm1
	movdqu xmmword ptr [rax], xmm2
	mov qword ptr [rax + 48], rdx
	add rax, 56
	dec rcx
	jne .L11
.L8:
	movups xmm0, xmmword ptr [rip + .Lanon+32]
	movups xmmword ptr [rax + 32], xmm0
	movups xmm0, xmmword ptr [rip + .Lanon+16]
	movups xmmword ptr [rax + 16], xmm0
	movdqu xmm0, xmmword ptr [rip + .Lanon]
	movdqu xmmword ptr [rax], xmm0
	mov ecx, 4294967295
	mov qword ptr [rax + 48], rcx
	lea rbx, [8*r13]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov esi, 8
	mov rdi, rbx
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L12
	mov r12, rax
	mov qword ptr [rsp + 144], rbx
	cmp rbp, 2
	jb .L13
	lea rdx, [8*rbp - 8]
	mov rdi, r12
	mov esi, 255
	call qword ptr [rip + memset@GOTPCREL]
	lea rax, [r12 + 8*rbp]
	add rax, -8
.L13:
	mov qword ptr [rax], -1
	lea rbx, [4*r14]
	mov rax, r14
	shr rax, 62
	setne al
	movabs rcx, 9223372036854775804
	cmp rbx, rcx
	seta cl
	or cl, al
	je .L14
	xor ebp, ebp
.L15:
	mov rdi, rbp
	mov rsi, rbx
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
	jmp .L5
.L14:
	test rbx, rbx
	je .L16
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov ebp, 4
	mov esi, 4
	mov rdi, rbx
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L15
	mov rbp, r12
	cmp r14, 2
	jb .L17
.L18:
	lea rdx, [rbx - 4]
	mov r15, rax
	mov rdi, rax
	mov esi, 255
	call qword ptr [rip + memset@GOTPCREL]
	mov rax, r15
	mov dword ptr [r15 + rbx - 4], -1
	mov r15, qword ptr [rsp + 128]
	mov rsi, qword ptr [rsp + 64]
	jmp .L19
.L16:
	mov eax, 4
	mov rbp, r12
	cmp r14, 2
	jae .L18
.L17:
	xor esi, esi
.L19:
	mov r12, qword ptr [rsp + 104]
	mov rcx, qword ptr [rsp + 40]
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
	mov rdx, qword ptr [rsp + 136]
	mov qword ptr [rsp + 216], rdx
	mov qword ptr [rsp + 224], rcx
	mov qword ptr [rsp + 232], r13
	mov qword ptr [rsp + 240], rbp
	mov qword ptr [rsp + 248], r13
	mov qword ptr [rsp + 256], rax
	mov qword ptr [rsp + 264], r14
	mov qword ptr [rsp + 272], r13
	mov qword ptr [rsp + 280], r12
	mov qword ptr [rsp + 288], r15
	mov qword ptr [rsp + 296], rsi
	mov qword ptr [rsp + 304], 0
	mov qword ptr [rsp + 312], rdx
	mov qword ptr [rsp + 320], rdx
	mov qword ptr [rsp + 328], 0
	mov dword ptr [rsp + 336], 1
	mov r13d, dword ptr [rsp + 100]
	mov dword ptr [rsp + 340], r13d
	mov r14, qword ptr [rsp + 120]
	mov qword ptr [rsp + 392], r14
	lea rax, [rsp + 440]
	mov qword ptr [rsp + 400], rax
	mov rax, qword ptr [rsp + 56]
	mov qword ptr [rsp + 408], rax
	mov word ptr [rsp + 432], 0
	movzx eax, byte ptr [rsp + 15]
	mov byte ptr [rsp + 434], al
	cmp r13d, 2
	jb .L20
	mov rax, qword ptr [rsp + 48]
	lea rcx, [rax + 24]
	mov qword ptr [rsp + 56], rcx
	mov rbx, qword ptr [rax + 56]
	mov rax, qword ptr [rax + 96]
	mov qword ptr [rsp + 48], rax
	mov rbp, qword ptr [r14 + 8]
	mov r14, qword ptr [r14 + 16]
	dec r13d
	xor r15d, r15d
.L21:
	lea rdi, [rsp + 16]
	lea rsi, [rsp + 160]
	call qword ptr [rip + hotloops::pg::read_stream::ReadStream<M>::next_buffer@GOTPCREL]
	cmp byte ptr [rsp + 16], 0
	jne .L22
	mov r12, qword ptr [rsp + 32]
	test r12, r12
	je .L23
	mov ecx, dword ptr [rsp + 24]
	mov rdi, rbx
	mov rsi, rbp
	mov rdx, r14
	mov r8, r12
	call hotloops::study::read_stream::check_page_header
	test rax, rax
	jne .L24
	mov rdi, r12
	mov rsi, qword ptr [rsp + 56]
	mov rdx, qword ptr [rsp + 48]
	mov rcx, qword ptr [rsp + 152]
	mov r8, qword ptr [rsp + 544]
	call qword ptr [rip + hl_read_stream_check_page@GOTPCREL]
	add r15, rax
	dec r13d
	jne .L21
	mov r14, qword ptr [rsp + 120]
	jmp .L25
.L20:
	xor r15d, r15d
.L25:
	lea rdi, [rsp + 16]
	lea rsi, [rsp + 160]
	call qword ptr [rip + hotloops::pg::read_stream::ReadStream<M>::next_buffer@GOTPCREL]
	cmp byte ptr [rsp + 16], 0
	je .L26
.L22:
	mov r15, qword ptr [rsp + 24]
	jmp .L27
.L26:
	cmp qword ptr [rsp + 32], 0
	je .L28
	movdqu xmm0, xmmword ptr [r14 + 8]
	movdqu xmmword ptr [rsp + 64], xmm0
	lea rax, [rsp + 64]
	mov qword ptr [rsp + 80], rax
	mov rax, qword ptr [rip + <std::path::Display as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 88], rax
	lea rsi, [rip + .Lanon]
	lea rdi, [rsp + 16]
	lea rdx, [rsp + 80]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov r15, qword ptr [rsp + 16]
	mov r14, qword ptr [rsp + 24]
	mov rbx, qword ptr [rsp + 32]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov edi, 24
	mov esi, 8
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	jne .L29
	mov edi, 8
	mov esi, 24
	call qword ptr [rip + alloc::alloc::handle_alloc_error@GOTPCREL]
	jmp .L5
.L23:
	mov qword ptr [rsp + 64], rbp
	mov qword ptr [rsp + 72], r14
	lea rax, [rsp + 64]
	mov qword ptr [rsp + 80], rax
	mov rax, qword ptr [rip + <std::path::Display as core::fmt::Display>::fmt@GOTPCREL]
	mov qword ptr [rsp + 88], rax
	lea rsi, [rip + .Lanon]
	lea rdi, [rsp + 16]
	lea rdx, [rsp + 80]
	call qword ptr [rip + alloc::fmt::format::format_inner@GOTPCREL]
	mov r15, qword ptr [rsp + 16]
	mov r14, qword ptr [rsp + 24]
	mov rbx, qword ptr [rsp + 32]
	call qword ptr [rip + __rustc::__rust_no_alloc_shim_is_unstable_v2@GOTPCREL]
	mov edi, 24
	mov esi, 8
	call qword ptr [rip + __rustc::__rust_alloc@GOTPCREL]
	test rax, rax
	je .L30
.L29:
	mov qword ptr [rax], r15
	mov qword ptr [rax + 8], r14
	mov qword ptr [rax + 16], rbx
	lea rdx, [rip + .Lanon]
	mov edi, 40
	mov rsi, rax
	call qword ptr [rip + <std::io::error::Error>::_new@GOTPCREL]
	mov r15, rax
.L27:
	mov ebx, 1
.L31:
	mov rax, qword ptr [rsp + 552]
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
	movdqa xmm1, xmmword ptr [rip + .L32]
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
	call core::ptr::drop_in_place<hotloops::pg::read_stream::ReadStream<hotloops::pg::read_stream::WorkerIo>>
	jmp .L1
.L24:
	mov ebx, 1
	mov r15, rax
	jmp .L31
.L28:
	xor ebx, ebx
	jmp .L31
.L30:
	mov edi, 8
	mov esi, 24
	call qword ptr [rip + alloc::alloc::handle_alloc_error@GOTPCREL]
	jmp .L5
.L12:
	mov edi, 8
	mov rsi, rbx
	call qword ptr [rip + alloc::raw_vec::handle_error@GOTPCREL]
.L5:
	ud2
	jmp .L33
	mov rbx, rax
	jmp .L34
	mov rbx, rax
	lea rdi, [rsp + 440]
	call core::ptr::drop_in_place<alloc::vec::Vec<hotloops::pg::read_stream::Job>>
	jmp .L35
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
.L33:
	mov rbx, rax
	jmp .L36
	jmp .L37
.L37:
	mov rbx, rax
	test r15, r15
	je .L36
	mov edx, 1
	mov rdi, r14
	mov rsi, r15
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
.L36:
	lea rdi, [rsp + 160]
	call core::ptr::drop_in_place<hotloops::pg::read_stream::ReadStream<hotloops::pg::read_stream::WorkerIo>>
	jmp .L38
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
	mov rbx, rax
	mov edx, 8
	mov rdi, r12
	mov rsi, qword ptr [rsp + 144]
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
.L34:
	mov edx, 8
	mov rdi, qword ptr [rsp + 40]
	mov rsi, qword ptr [rsp + 112]
	call qword ptr [rip + __rustc::__rust_dealloc@GOTPCREL]
	jmp .L38
	mov rbx, rax
.L38:
	lea rdi, [rsp + 440]
	call core::ptr::drop_in_place<hotloops::pg::read_stream::WorkerIo>
.L35:
	mov rdi, rbx
	call _Unwind_Resume@PLT
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]

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
