# hotloops asm snapshot of `alloc-churn/palloc-routine`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_palloc_routine:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 152
	mov qword ptr [rsp + 8], rdi
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
	mov r14, qword ptr [rsp + 8]
	mov rbx, qword ptr [r14 + 296]
	lea rdi, [rip + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@TLSLD]
	call __tls_get_addr@PLT
	mov rdi, r14
	lea rcx, [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov rdx, qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov qword ptr [rsp + 144], rdx
	mov qword ptr [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF], rbx
	mov rax, qword ptr [r14 + 16]
	test rax, rax
	mov qword ptr [rsp + 112], rcx
	je .L5
	mov rcx, qword ptr [rdi + 8]
	mov qword ptr [rsp + 64], rcx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 56], rax
	lea rax, [rdi + 64]
	mov qword ptr [rsp + 24], rax
	lea rax, [rdi + 96]
	mov qword ptr [rsp + 32], rax
	lea rax, [rdi + 128]
	mov qword ptr [rsp + 136], rax
	lea rax, [rdi + 160]
	mov qword ptr [rsp + 128], rax
	lea rax, [rdi + 192]
	mov qword ptr [rsp + 120], rax
	lea rax, [rdi + 224]
	mov qword ptr [rsp + 104], rax
	lea rax, [rdi + 256]
	mov qword ptr [rsp + 96], rax
	xor ebp, ebp
	mov r13, qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov rbx, r15
.L6:
	mov rax, qword ptr [rsp + 64]
	mov eax, dword ptr [rax + rbp + 20]
	mov r14, qword ptr [rsp + 24]
	cmp dword ptr [rdi + 88], eax
	mov dword ptr [rsp + 16], eax
	je .L7
	mov r14, qword ptr [rsp + 32]
	cmp dword ptr [rdi + 120], eax
	je .L7
	mov r14, qword ptr [rsp + 136]
	cmp dword ptr [rdi + 152], eax
	je .L7
	mov r14, qword ptr [rsp + 128]
	cmp dword ptr [rdi + 184], eax
	je .L7
	mov r14, qword ptr [rsp + 120]
	cmp dword ptr [rdi + 216], eax
	je .L7
	mov r14, qword ptr [rsp + 104]
	cmp dword ptr [rdi + 248], eax
	je .L7
	mov r14, qword ptr [rsp + 96]
	cmp dword ptr [rdi + 280], eax
	jne .L8
.L7:
	cmp byte ptr [r14 + 28], 105
	jne .L9
	mov rax, qword ptr [r14 + 16]
	test rax, rax
	je .L10
	call rax
	mov r15, rax
	mov eax, 3
	test r15, r15
	je .L11
	cmp dword ptr [r15], 430
	jne .L11
	movzx eax, byte ptr [r15 + 10]
	mov qword ptr [rsp + 48], rax
	movzx eax, byte ptr [r15 + 15]
	mov qword ptr [rsp + 40], rax
	movzx r14d, word ptr [r15 + 6]
	mov rdi, r15
	call r13
	mov r13, qword ptr [rsp + 24]
	mov rax, qword ptr [rsp + 8]
	mov ecx, dword ptr [rsp + 16]
	cmp dword ptr [rax + 88], ecx
	je .L12
	mov r13, qword ptr [rsp + 32]
	cmp dword ptr [rax + 120], ecx
	je .L12
	mov r13, qword ptr [rsp + 136]
	cmp dword ptr [rax + 152], ecx
	je .L12
	mov r13, qword ptr [rsp + 128]
	cmp dword ptr [rax + 184], ecx
	je .L12
	mov r13, qword ptr [rsp + 120]
	cmp dword ptr [rax + 216], ecx
	je .L12
	mov r13, qword ptr [rsp + 104]
	cmp dword ptr [rax + 248], ecx
	je .L12
	mov r13, qword ptr [rsp + 96]
	cmp dword ptr [rax + 280], ecx
	jne .L13
.L12:
	cmp byte ptr [r13 + 28], 105
	jne .L14
	mov rax, qword ptr [r13 + 16]
	test rax, rax
	je .L15
	call rax
	mov r12, rax
	mov eax, 3
	test r12, r12
	je .L16
	cmp dword ptr [r12], 430
	mov rdi, qword ptr [rsp + 8]
	jne .L16
	shl r14d, 8
	mov rax, qword ptr [rsp + 48]
	mov rcx, qword ptr [rsp + 40]
	lea rax, [rax + 2*rcx]
	or rax, r14
	xor rax, rbx
	movabs rsi, 1099511628211
	imul rax, rsi
	movzx ecx, byte ptr [r12 + 13]
	movzx edx, byte ptr [r12 + 19]
	lea rcx, [rcx + 2*rdx]
	movzx ebx, word ptr [r12 + 4]
	shl ebx, 8
	or rbx, rcx
	xor rbx, rax
	imul rbx, rsi
	add rbp, 24
	cmp qword ptr [rsp + 56], rbp
	mov r13, qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jne .L6
	mov rcx, rdi
	mov rdi, qword ptr [rdi + 8]
	mov rax, qword ptr [rcx + 16]
	lea r13, [rcx + 304]
	mov rcx, qword ptr [rcx + 304]
	mov rdx, qword ptr [rsp + 112]
	mov qword ptr [rdx], rcx
	test rax, rax
	je .L17
	shl rax, 3
	lea r14, [rax + 2*rax]
	xor r15d, r15d
.L18:
	mov rax, qword ptr [rdi]
	mov rax, qword ptr [rax + 152]
	test rax, rax
	je .L19
	lea r12, [rdi + 24]
	mov esi, 1
	xor edx, edx
	call rax
	mov byte ptr [rax + 48], 1
	mov rcx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rcx + 32]
	mov qword ptr [rcx + r15], rax
	add r15, 8
	mov rdi, r12
	add r14, -24
	jne .L18
	mov rcx, qword ptr [rsp + 8]
	mov rax, qword ptr [rcx + 8]
	mov qword ptr [rsp + 48], rax
	mov rax, qword ptr [rcx + 16]
	lea rdx, [rcx + 328]
	mov qword ptr [rsp + 16], rdx
	mov qword ptr [rcx + 328], 0
	lea rdx, [rcx + 336]
	mov qword ptr [rsp + 32], rdx
	movabs rdx, -3750763034362895579
	mov qword ptr [rcx + 336], rdx
	mov qword ptr [rcx + 344], 0
	test rax, rax
	je .L20
	mov qword ptr [rsp + 56], r13
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 40], rax
	lea rax, [rcx + 312]
	mov qword ptr [rsp + 64], rax
	xor r15d, r15d
	xor r14d, r14d
	xor edx, edx
	xor ebp, ebp
.L21:
	mov rax, qword ptr [rsp + 48]
	mov rcx, qword ptr [rax + r14]
	mov rax, qword ptr [rcx + 160]
	test rax, rax
	je .L22
	mov r12, qword ptr [rcx + 176]
	test r12, r12
	je .L22
	mov rcx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rcx + 32]
	mov r13, qword ptr [rcx + 8*rbp]
	inc rbp
	mov rdi, r13
	mov rsi, qword ptr [rsp + 64]
	mov qword ptr [rsp + 24], rdx
	mov edx, 1
	xor ecx, ecx
	xor r8d, r8d
	call rax
	mov rdi, r13
	mov rsi, qword ptr [rsp + 16]
	call r12
	mov rdx, qword ptr [rsp + 24]
	add rdx, rax
	xor r15, rax
	movabs rax, 1099511628211
	imul r15, rax
	add r14, 24
	cmp qword ptr [rsp + 40], r14
	jne .L21
	mov rcx, qword ptr [rsp + 8]
	mov rax, qword ptr [rcx + 16]
	xor rbx, rdx
	test rax, rax
	je .L23
	mov rdx, qword ptr [rcx + 8]
	mov qword ptr [rsp + 48], rdx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 40], rax
	xor ebp, ebp
	xor r14d, r14d
	jmp .L24
.L25:
	shl r13, 32
	add r13, qword ptr [rsp + 24]
	xor r15, r13
	movabs rax, 1099511628211
	imul r15, rax
	mov rdi, r12
	mov rax, qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	call rax
	add rbp, 24
	inc r14
	cmp qword ptr [rsp + 40], rbp
	mov rcx, qword ptr [rsp + 8]
	je .L23
.L24:
	mov rax, qword ptr [rsp + 48]
	mov rax, qword ptr [rax + rbp]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L26
	mov rcx, qword ptr [rcx + 32]
	mov r12, qword ptr [rcx + 8*r14]
	mov rcx, qword ptr [r12 + 56]
	mov r13d, dword ptr [rcx + 4]
	mov ecx, dword ptr [rcx + 92]
	mov qword ptr [rsp + 24], rcx
	mov rdi, r12
	call rax
	mov rdi, qword ptr [r12 + 32]
	test rdi, rdi
	je .L25
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L25
.L5:
	lea r13, [rdi + 304]
	mov rax, qword ptr [rdi + 304]
	mov qword ptr [rcx], rax
	mov rbx, r15
	jmp .L27
.L17:
	mov rdi, qword ptr [rsp + 8]
	movabs r15, -3750763034362895579
.L27:
	lea rax, [rdi + 328]
	mov qword ptr [rsp + 16], rax
	mov qword ptr [rdi + 328], 0
	lea rax, [rdi + 336]
	mov qword ptr [rsp + 32], rax
	mov qword ptr [rdi + 336], r15
	mov qword ptr [rdi + 344], 0
.L20:
	xor r15d, r15d
	mov r14, qword ptr [r13]
	mov r12, qword ptr [r14]
	test r12, r12
	jne .L28
	jmp .L29
.L23:
	mov r13, qword ptr [rsp + 56]
	mov r14, qword ptr [r13]
	mov r12, qword ptr [r14]
	test r12, r12
	je .L29
.L28:
	mov r13, qword ptr [rip + mi_free@GOTPCREL]
	mov rbp, qword ptr [rip + free@GOTPCREL]
	jmp .L30
.L31:
	lea rax, [rdi + 40]
	mov qword ptr [rdi + 24], rax
	xorps xmm0, xmm0
	movups xmmword ptr [rdi + 8], xmm0
.L32:
	test r12, r12
	je .L29
.L30:
	mov rdi, r12
	mov r12, qword ptr [r12 + 16]
	cmp rdi, qword ptr [r14 + 128]
	je .L31
	mov rax, rdi
	sub rax, qword ptr [rdi + 32]
	add qword ptr [r14 + 136], rax
	inc qword ptr [r14 + 176]
	cmp byte ptr [r14 + 144], 0
	je .L33
	call r13
	jmp .L32
.L33:
	call rbp
	jmp .L32
.L29:
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
	mov rax, qword ptr [rsp + 112]
	mov rcx, qword ptr [rsp + 144]
	mov qword ptr [rax], rcx
	mov rax, qword ptr [rsp + 16]
	mov rax, qword ptr [rax]
	rol rax, 32
	movabs rcx, 1099511628211
	imul rbx, rcx
	mov rdx, qword ptr [rsp + 32]
	xor rbx, qword ptr [rdx]
	xor rbx, rax
	imul rbx, rcx
	xor rbx, r15
	imul rbx, rcx
	mov rax, rbx
	add rsp, 152
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L22:
	lea rdi, [rip + .Lanon]
	mov esi, 20
	call hotloops::study::alloc_churn::missing_callback
.L19:
	lea rdi, [rip + .Lanon]
	mov esi, 11
	call hotloops::study::alloc_churn::missing_callback
.L26:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L14:
	mov eax, 1
	jmp .L16
.L10:
	mov eax, 2
	jmp .L11
.L15:
	mov eax, 2
.L16:
	mov r12, qword ptr [r13]
	mov rcx, qword ptr [r13 + 8]
.L34:
	mov dword ptr [rsp + 72], eax
	mov eax, dword ptr [rsp + 16]
	mov dword ptr [rsp + 76], eax
	mov qword ptr [rsp + 80], r12
	mov qword ptr [rsp + 88], rcx
	lea rdi, [rsp + 72]
	call hotloops::study::alloc_churn::lookup_failed
.L9:
	mov eax, 1
.L11:
	mov r15, qword ptr [r14]
	mov rcx, qword ptr [r14 + 8]
.L35:
	mov dword ptr [rsp + 72], eax
	mov eax, dword ptr [rsp + 16]
	mov dword ptr [rsp + 76], eax
	mov qword ptr [rsp + 80], r15
	mov qword ptr [rsp + 88], rcx
	lea rdi, [rsp + 72]
	call hotloops::study::alloc_churn::lookup_failed
.L8:
	xor eax, eax
	jmp .L35
.L13:
	xor eax, eax
	jmp .L34

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
