# hotloops asm snapshot of `alloc-churn/palloc-routine`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_alloc_churn_palloc_routine:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 168
	mov qword ptr [rsp + 8], rdi
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
	mov r15, qword ptr [rsp + 8]
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
	mov rcx, qword ptr [rsp + 8]
	mov rdx, qword ptr [rcx + 32]
	mov qword ptr [rsp + 88], rdx
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp + 80], rax
	lea rax, [rcx + 88]
	mov qword ptr [rsp], rax
	lea rax, [rcx + 120]
	mov qword ptr [rsp + 24], rax
	lea rax, [rcx + 152]
	mov qword ptr [rsp + 64], rax
	lea rax, [rcx + 184]
	mov qword ptr [rsp + 128], rax
	lea rax, [rcx + 216]
	mov qword ptr [rsp + 120], rax
	lea rax, [rcx + 248]
	mov qword ptr [rsp + 112], rax
	lea rax, [rcx + 280]
	mov qword ptr [rsp + 104], rax
	xor r15d, r15d
.L6:
	mov rax, qword ptr [rsp + 88]
	mov ecx, dword ptr [rax + r15 + 20]
	mov rbx, qword ptr [rsp]
	mov rax, qword ptr [rsp + 8]
	cmp dword ptr [rax + 112], ecx
	mov dword ptr [rsp + 16], ecx
	je .L7
	mov rbx, qword ptr [rsp + 24]
	cmp dword ptr [rax + 144], ecx
	je .L7
	mov rbx, qword ptr [rsp + 64]
	cmp dword ptr [rax + 176], ecx
	je .L7
	mov rbx, qword ptr [rsp + 128]
	cmp dword ptr [rax + 208], ecx
	je .L7
	mov rbx, qword ptr [rsp + 120]
	cmp dword ptr [rax + 240], ecx
	je .L7
	mov rbx, qword ptr [rsp + 112]
	cmp dword ptr [rax + 272], ecx
	je .L7
	mov rbx, qword ptr [rsp + 104]
	cmp dword ptr [rax + 304], ecx
	jne .L8
.L7:
	cmp byte ptr [rbx + 28], 105
	jne .L9
	mov rax, qword ptr [rbx + 16]
	test rax, rax
	je .L10
	call rax
	mov r12, rax
	mov eax, 3
	test r12, r12
	je .L11
	cmp dword ptr [r12], 430
	jne .L11
	movzx eax, byte ptr [r12 + 10]
	mov qword ptr [rsp + 72], rax
	movzx eax, byte ptr [r12 + 15]
	mov qword ptr [rsp + 96], rax
	movzx ebp, word ptr [r12 + 6]
	mov rdi, r12
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	mov rbx, qword ptr [rsp]
	mov rax, qword ptr [rsp + 8]
	mov ecx, dword ptr [rsp + 16]
	cmp dword ptr [rax + 112], ecx
	je .L12
	mov rbx, qword ptr [rsp + 24]
	cmp dword ptr [rax + 144], ecx
	je .L12
	mov rbx, qword ptr [rsp + 64]
	cmp dword ptr [rax + 176], ecx
	je .L12
	mov rbx, qword ptr [rsp + 128]
	cmp dword ptr [rax + 208], ecx
	je .L12
	mov rbx, qword ptr [rsp + 120]
	cmp dword ptr [rax + 240], ecx
	je .L12
	mov rbx, qword ptr [rsp + 112]
	cmp dword ptr [rax + 272], ecx
	je .L12
	mov rbx, qword ptr [rsp + 104]
	cmp dword ptr [rax + 304], ecx
	jne .L13
.L12:
	cmp byte ptr [rbx + 28], 105
	jne .L14
	mov rax, qword ptr [rbx + 16]
	test rax, rax
	je .L15
	call rax
	mov r13, rax
	mov eax, 3
	test r13, r13
	je .L16
	cmp dword ptr [r13], 430
	jne .L16
	shl ebp, 8
	mov rax, qword ptr [rsp + 72]
	mov rcx, qword ptr [rsp + 96]
	lea rax, [rax + 2*rcx]
	or rax, rbp
	xor rax, r14
	movabs rsi, 1099511628211
	imul rax, rsi
	movzx ecx, byte ptr [r13 + 13]
	movzx edx, byte ptr [r13 + 19]
	lea rcx, [rcx + 2*rdx]
	movzx r14d, word ptr [r13 + 4]
	shl r14d, 8
	or r14, rcx
	xor r14, rax
	imul r14, rsi
	add r15, 24
	cmp qword ptr [rsp + 80], r15
	jne .L6
.L5:
	mov qword ptr [rsp + 24], r14
	mov rax, qword ptr [rsp + 152]
	lea rbx, [rax + hotloops::pg::mcxt::CURRENT_MEMORY_CONTEXT::{{constant}}::{{closure}}::__RUST_STD_INTERNAL_VAL@DTPOFF]
	mov r14, qword ptr [rsp + 8]
	mov rax, qword ptr [r14 + 72]
	movzx edx, byte ptr [rax + 25]
	lea rdi, [rip + .Lanon]
	mov esi, 13
	mov r8d, 8192
	mov r9d, 8388608
	mov dword ptr [rsp], edx
	xor ecx, ecx
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::new@GOTPCREL]
	mov qword ptr [rsp + 136], rax
	mov qword ptr [rsp + 80], rbx
	mov qword ptr [rsp + 72], rax
	mov qword ptr [rbx], rax
	mov r13, qword ptr [r14 + 40]
	lea rbp, [rsp + 36]
	add r13, 3
	jmp .L17
.L18:
	mov rax, qword ptr [r14 + 8]
	mov qword ptr [rax + 8*rbx], r12
	inc rbx
	mov qword ptr [r14 + 16], rbx
	dec r13
	je .L19
.L17:
	mov esi, 128
	lea rdi, [rsp + 136]
	call qword ptr [rip + hotloops::pg::mcxt::AllocSet::alloc@GOTPCREL]
	mov r15, rax
	mov esi, 11
	mov r8d, 8192
	mov r9d, 8388608
	lea rdi, [rip + .Lanon]
	mov edx, dword ptr [rsp]
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
	mov rbx, qword ptr [r14 + 16]
	cmp rbx, qword ptr [r14]
	jne .L18
	mov rdi, r14
	call qword ptr [rip + alloc::raw_vec::RawVec<T,A>::grow_one@GOTPCREL]
	jmp .L18
.L19:
	lea rdi, [rip + .Lanon]
	mov esi, 8
	mov r8d, 8192
	mov r9d, 8388608
	mov edx, dword ptr [rsp]
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
	je .L20
	mov qword ptr [rsp + 64], rcx
	lea rcx, [r14 + 352]
	mov qword ptr [rsp + 96], rcx
	mov rdi, qword ptr [r14 + 32]
	shl rax, 3
	lea rdx, [rax + 2*rax]
	lea rax, [r14 + 336]
	mov qword ptr [rsp + 88], rax
	xor r14d, r14d
	xor ebp, ebp
	xor ebx, ebx
.L21:
	mov rcx, qword ptr [rdi]
	mov rax, qword ptr [rcx + 152]
	test rax, rax
	je .L22
	mov r12, qword ptr [rcx + 160]
	test r12, r12
	je .L22
	mov r13, qword ptr [rcx + 176]
	test r13, r13
	je .L22
	lea rcx, [rdi + 24]
	mov qword ptr [rsp + 16], rcx
	mov esi, 1
	mov qword ptr [rsp], rdx
	xor edx, edx
	call rax
	mov r15, rax
	mov byte ptr [rax + 48], 1
	mov rax, qword ptr [rsp + 8]
	mov rax, qword ptr [rax + 56]
	mov qword ptr [rax + rbp], r15
	mov rdi, r15
	mov rsi, qword ptr [rsp + 88]
	mov edx, 1
	xor ecx, ecx
	xor r8d, r8d
	call r12
	mov rdi, r15
	mov rsi, qword ptr [rsp + 96]
	call r13
	mov rdx, qword ptr [rsp]
	add rbx, rax
	xor r14, rax
	movabs rax, 1099511628211
	imul r14, rax
	add rbp, 8
	mov rdi, qword ptr [rsp + 16]
	add rdx, -24
	jne .L21
	xor qword ptr [rsp + 24], rbx
	mov rcx, qword ptr [rsp + 64]
	jmp .L23
.L20:
	xor r14d, r14d
.L23:
	mov qword ptr [rsp + 32], rcx
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rax, qword ptr [rsp + 8]
	mov rcx, qword ptr [rax + 32]
	mov qword ptr [rsp + 16], rcx
	mov rax, qword ptr [rax + 40]
	shl rax, 3
	lea rax, [rax + 2*rax]
	mov qword ptr [rsp], rax
	xor ebp, ebp
	xor r13d, r13d
	jmp .L24
.L25:
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
.L24:
	cmp qword ptr [rsp], rbp
	je .L26
	mov rax, qword ptr [rsp + 16]
	mov rax, qword ptr [rax + rbp]
	mov rax, qword ptr [rax + 184]
	test rax, rax
	je .L27
	mov rcx, qword ptr [rsp + 8]
	mov rcx, qword ptr [rcx + 56]
	mov r15, qword ptr [rcx + 8*r13]
	mov rcx, qword ptr [r15 + 56]
	mov r12d, dword ptr [rcx + 4]
	mov ebx, dword ptr [rcx + 92]
	mov rdi, r15
	call rax
	mov rdi, qword ptr [r15 + 32]
	test rdi, rdi
	je .L25
	call qword ptr [rip + hotloops::pg::mcxt::pfree@GOTPCREL]
	jmp .L25
.L26:
	mov r12, qword ptr [rsp + 8]
	mov rax, qword ptr [r12 + 16]
	test rax, rax
	je .L28
	lea r15, [rsp + 32]
	mov rbx, qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L29:
	lea rcx, [rax - 1]
	mov qword ptr [r12 + 16], rcx
	mov rcx, qword ptr [r12 + 8]
	mov rax, qword ptr [rcx + 8*rax - 8]
	mov qword ptr [rsp + 32], rax
	mov rdi, r15
	call rbx
	mov rax, qword ptr [r12 + 16]
	test rax, rax
	jne .L29
.L28:
	mov rax, qword ptr [rsp + 144]
	mov rcx, qword ptr [rsp + 80]
	mov qword ptr [rcx], rax
	mov rcx, qword ptr [rsp + 72]
	mov rax, qword ptr [rcx + 168]
	mov qword ptr [r12 + 328], rax
	mov qword ptr [rsp + 32], rcx
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	mov rdx, qword ptr [r12 + 352]
	rol rdx, 32
	movabs rcx, 1099511628211
	mov rax, qword ptr [rsp + 24]
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
.L22:
	lea rdi, [rip + .Lanon]
	mov esi, 32
	call hotloops::study::alloc_churn::missing_callback
	jmp .L30
.L27:
	lea rdi, [rip + .Lanon]
	mov esi, 9
	call hotloops::study::alloc_churn::missing_callback
.L30:
	ud2
.L10:
	mov eax, 2
	jmp .L11
.L15:
	mov eax, 2
	jmp .L16
.L14:
	mov eax, 1
.L16:
	mov r13, qword ptr [rbx]
	mov rcx, qword ptr [rbx + 8]
.L31:
	mov dword ptr [rsp + 32], eax
	mov eax, dword ptr [rsp + 16]
	mov dword ptr [rsp + 36], eax
	mov qword ptr [rsp + 40], r13
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L9:
	mov eax, 1
.L11:
	mov r12, qword ptr [rbx]
	mov rcx, qword ptr [rbx + 8]
.L32:
	mov dword ptr [rsp + 32], eax
	mov eax, dword ptr [rsp + 16]
	mov dword ptr [rsp + 36], eax
	mov qword ptr [rsp + 40], r12
	mov qword ptr [rsp + 48], rcx
	lea rdi, [rsp + 32]
	call hotloops::study::alloc_churn::lookup_failed
.L8:
	xor eax, eax
	jmp .L32
.L13:
	xor eax, eax
	jmp .L31
	jmp .L33
	mov rbx, rax
	lea rdi, [rsp + 32]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
	jmp .L34
	call qword ptr [rip + core::panicking::panic_in_cleanup@GOTPCREL]
	jmp .L33
	jmp .L33
	jmp .L33
.L33:
	mov rbx, rax
	jmp .L34
	mov rbx, rax
	lea rdi, [rsp + 160]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
.L34:
	lea rdi, [rsp + 136]
	call qword ptr [rip + <hotloops::pg::mcxt::AllocSet as core::ops::drop::Drop>::drop@GOTPCREL]
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
