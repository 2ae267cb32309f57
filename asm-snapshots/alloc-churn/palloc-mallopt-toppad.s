# hotloops asm snapshot of `alloc-churn/palloc-mallopt-toppad`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_palloc_mallopt_toppad:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 152
	mov rsi, qword ptr [rdi + 304]
	cmp rsi, 3
	jne .L0
	mov qword ptr [rsp + 8], rdi
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
	mov r14, qword ptr [rsp + 8]
	mov rbx, qword ptr [r14 + 288]
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
	je .L6
	mov rcx, qword ptr [rdi + 8]
	mov qword ptr [rsp + 64], rcx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 56], rax
	lea rax, [rdi + 56]
	mov qword ptr [rsp + 24], rax
	lea rax, [rdi + 88]
	mov qword ptr [rsp + 32], rax
	lea rax, [rdi + 120]
	mov qword ptr [rsp + 136], rax
	lea rax, [rdi + 152]
	mov qword ptr [rsp + 128], rax
	lea rax, [rdi + 184]
	mov qword ptr [rsp + 120], rax
	lea rax, [rdi + 216]
	mov qword ptr [rsp + 104], rax
	lea rax, [rdi + 248]
	mov qword ptr [rsp + 96], rax
	xor ebp, ebp
	mov r13, qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov rbx, r15
.L7:
	mov rax, qword ptr [rsp + 64]
	mov eax, dword ptr [rax + rbp + 20]
	mov r14, qword ptr [rsp + 24]
	cmp dword ptr [rdi + 80], eax
	mov dword ptr [rsp + 16], eax
	je .L8
	mov r14, qword ptr [rsp + 32]
	cmp dword ptr [rdi + 112], eax
	je .L8
	mov r14, qword ptr [rsp + 136]
	cmp dword ptr [rdi + 144], eax
	je .L8
	mov r14, qword ptr [rsp + 128]
	cmp dword ptr [rdi + 176], eax
	je .L8
	mov r14, qword ptr [rsp + 120]
	cmp dword ptr [rdi + 208], eax
	je .L8
	mov r14, qword ptr [rsp + 104]
	cmp dword ptr [rdi + 240], eax
	je .L8
	mov r14, qword ptr [rsp + 96]
	cmp dword ptr [rdi + 272], eax
	jne .L9
.L8:
	cmp byte ptr [r14 + 28], 105
	jne .L10
	mov rax, qword ptr [r14 + 16]
	test rax, rax
	je .L11
	call rax
	mov r15, rax
	mov eax, 3
	test r15, r15
	je .L12
	cmp dword ptr [r15], 430
	jne .L12
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
	cmp dword ptr [rax + 80], ecx
	je .L13
	mov r13, qword ptr [rsp + 32]
	cmp dword ptr [rax + 112], ecx
	je .L13
	mov r13, qword ptr [rsp + 136]
	cmp dword ptr [rax + 144], ecx
	je .L13
	mov r13, qword ptr [rsp + 128]
	cmp dword ptr [rax + 176], ecx
	je .L13
	mov r13, qword ptr [rsp + 120]
	cmp dword ptr [rax + 208], ecx
	je .L13
	mov r13, qword ptr [rsp + 104]
	cmp dword ptr [rax + 240], ecx
	je .L13
	mov r13, qword ptr [rsp + 96]
	cmp dword ptr [rax + 272], ecx
	jne .L14
.L13:
	cmp byte ptr [r13 + 28], 105
	jne .L15
	mov rax, qword ptr [r13 + 16]
	test rax, rax
	je .L16
	call rax
	mov r12, rax
	mov eax, 3
	test r12, r12
	je .L17
	cmp dword ptr [r12], 430
	mov rdi, qword ptr [rsp + 8]
	jne .L17
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
	jne .L7
	mov rcx, rdi
	mov rdi, qword ptr [rdi + 8]
	mov rax, qword ptr [rcx + 16]
	lea r13, [rcx + 296]
	mov rcx, qword ptr [rcx + 296]
	mov rdx, qword ptr [rsp + 112]
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
	mov rcx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rcx + 32]
	mov qword ptr [rcx + r15], rax
	add r15, 8
	mov rdi, r12
	add r14, -24
	jne .L19
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
	je .L21
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
.L22:
	mov rax, qword ptr [rsp + 48]
	mov rcx, qword ptr [rax + r14]
	mov rax, qword ptr [rcx + 160]
	test rax, rax
	je .L23
	mov r12, qword ptr [rcx + 176]
	test r12, r12
	je .L23
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
	jne .L22
	mov rcx, qword ptr [rsp + 8]
	mov rax, qword ptr [rcx + 16]
	xor rbx, rdx
	test rax, rax
	je .L24
	mov rdx, qword ptr [rcx + 8]
	mov qword ptr [rsp + 48], rdx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 40], rax
	xor ebp, ebp
	xor r14d, r14d
	jmp .L25
.L26:
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
	je .L24
.L25:
	mov rax, qword ptr [rsp + 48]
	mov rax, qword ptr [rax + rbp]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L27
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
	je .L26
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L26
.L6:
	lea r13, [rdi + 296]
	mov rax, qword ptr [rdi + 296]
	mov qword ptr [rcx], rax
	mov rbx, r15
	jmp .L28
.L18:
	mov rdi, qword ptr [rsp + 8]
	movabs r15, -3750763034362895579
.L28:
	lea rax, [rdi + 328]
	mov qword ptr [rsp + 16], rax
	mov qword ptr [rdi + 328], 0
	lea rax, [rdi + 336]
	mov qword ptr [rsp + 32], rax
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
	mov r13, qword ptr [rsp + 56]
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
.L0:
	mov edi, 3
	call hotloops::study::alloc_churn::wrong_backend
.L15:
	mov eax, 1
	jmp .L17
.L11:
	mov eax, 2
	jmp .L12
.L16:
	mov eax, 2
.L17:
	mov r12, qword ptr [r13]
	mov rcx, qword ptr [r13 + 8]
.L35:
	mov dword ptr [rsp + 72], eax
	mov eax, dword ptr [rsp + 16]
	mov dword ptr [rsp + 76], eax
	mov qword ptr [rsp + 80], r12
	mov qword ptr [rsp + 88], rcx
	lea rdi, [rsp + 72]
	call hotloops::study::alloc_churn::lookup_failed
.L10:
	mov eax, 1
.L12:
	mov r15, qword ptr [r14]
	mov rcx, qword ptr [r14 + 8]
.L36:
	mov dword ptr [rsp + 72], eax
	mov eax, dword ptr [rsp + 16]
	mov dword ptr [rsp + 76], eax
	mov qword ptr [rsp + 80], r15
	mov qword ptr [rsp + 88], rcx
	lea rdi, [rsp + 72]
	call hotloops::study::alloc_churn::lookup_failed
.L9:
	xor eax, eax
	jmp .L36
.L14:
	xor eax, eax
	jmp .L35

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
	lea rcx, [rip + hotloops::pg::amapi::scan::btrescan]
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
