# hotloops asm snapshot of `dir-by-value/c-by-value` under `gcc12-strict` (csrc/nbtsearch_checkkeys.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fstrict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_strict
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_strict dropped

hotloops_dir_by_value_c_by_value:
	push rbp
	mov eax, edx
	mov edx, r8d
	mov r9d, 1
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	mov r12, rdi
	mov edi, ecx
	push rbx
	mov rbx, rsi
	sub rsp, 104
	mov r15, qword ptr [r12 + 56]
	mov rcx, qword ptr fs:[40]
	mov qword ptr [rbp - 56], rcx
	xor ecx, ecx
	mov rcx, qword ptr [r12 + 8]
	mov dword ptr [rbp - 112], 1
	mov qword ptr [rbp - 104], 0
	lea r10, [r15 + 136]
	movzx esi, byte ptr [rcx + 48]
	movzx ecx, word ptr [rbx + 16]
	mov qword ptr [rbp - 96], rbx
	mov byte ptr [rbp - 88], dil
	mov r8d, dword ptr [rbx + rcx + 4]
	movzx ecx, word ptr [rbx + 12]
	mov byte ptr [rbp - 87], 0
	mov dword ptr [r15 + 112], 1
	cmp r8d, 1
	mov dword ptr [rbp - 84], 0
	sbb r9w, -1
	sub ecx, 24
	xor r11d, r11d
	xor r13d, r13d
	movsx rcx, ecx
	mov word ptr [rbp - 108], r9w
	shr rcx, 2
	mov word ptr [rbp - 80], ax
	mov word ptr [rbp - 122], cx
	mov word ptr [rbp - 106], cx
	mov word ptr [rbp - 78], r11w
	mov byte ptr [rbp - 76], 1
	mov dword ptr [rbp - 74], 0
	mov word ptr [rbp - 70], r13w
	cmp dil, 1
	je .L0
	cmp r9w, cx
	jb .L1
.L0:
	cmp r9w, ax
	cmovnb eax, r9d
	mov r13d, eax
	cmp cx, ax
	jb .L2
	lea rax, [rbp - 112]
	mov dword ptr [rbp - 128], r8d
	xor r14d, r14d
	mov qword ptr [rbp - 144], r15
	mov r15d, r13d
	mov qword ptr [rbp - 120], rax
	mov qword ptr [rbp - 136], r10
	jmp .L3
.L4:
	add r15d, 1
	cmp word ptr [rbp - 122], r15w
	jb .L5
.L3:
	movzx eax, r15w
	mov rsi, qword ptr [rbp - 120]
	mov rdi, r12
	sub eax, 1
	cdqe
	movzx edx, word ptr [rbx + 4*rax + 24]
	mov word ptr [rbp - 80], r15w
	and edx, 32767
	lea r13, [rbx + rdx]
	mov rdx, r13
	call hl_dir_by_value_c_by_value_checkkeys
	test al, al
	je .L6
	movsx rax, r14d
	mov rdi, qword ptr [rbp - 136]
	mov esi, dword ptr [r13]
	add r14d, 1
	lea rax, [rax + 4*rax]
	lea rax, [rdi + 2*rax]
	mov dword ptr [rax], esi
	movzx edx, word ptr [r13 + 4]
	mov word ptr [rax + 6], r15w
	mov word ptr [rax + 4], dx
	xor edx, edx
	mov word ptr [rax + 8], dx
.L6:
	movzx eax, byte ptr [rbp - 76]
	test al, al
	jne .L4
	test r14d, r14d
	mov r15, qword ptr [rbp - 144]
	lea r13d, [r14 - 1]
	setg r14b
.L7:
	mov byte ptr [r15 + 121], al
	mov dword ptr [r15 + 124], 0
	mov dword ptr [r15 + 128], r13d
	mov dword ptr [r15 + 132], 0
	mov rax, qword ptr [rbp - 56]
	sub rax, qword ptr fs:[40]
	jne .L8
	add rsp, 104
	mov eax, r14d
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L1:
	mov r11d, dword ptr [r15 + 4]
	mov edi, r11d
	sub edi, edx
	mov edx, 0
	cmovs edi, edx
	movzx edx, r9w
	sub edx, 1
	movsx rdx, edx
	movzx r13d, word ptr [rbx + 4*rdx + 24]
	movzx edx, cx
	sub edx, 1
	movsx rdx, edx
	and r13d, 32767
	movzx edx, word ptr [rbx + 4*rdx + 24]
	add r13, rbx
	and edx, 32767
	add rdx, rbx
	test sil, sil
	je .L9
	mov r14, qword ptr [r13 + 8]
	mov r13, qword ptr [rdx + 8]
.L10:
	test r11d, r11d
	jle .L11
	mov rsi, qword ptr [r15 + 8]
	mov qword ptr [rbp - 120], r15
	mov dword ptr [rbp - 136], r8d
	lea rdx, [rsi + 6]
	xor esi, esi
	jmp .L12
.L13:
	cmp r14, r8
	setge r15b
	cmp r13, r8
	setge r8b
.L14:
	test r15b, r15b
	je .L15
	test r8b, r8b
	je .L15
	add esi, 1
	add rdx, 16
	cmp r11d, esi
	je .L16
.L12:
	cmp word ptr [rdx], 2
	mov r8, qword ptr [rdx + 2]
	jne .L13
	cmp r14, r8
	setle r15b
	cmp r13, r8
	setle r8b
	jmp .L14
.L5:
	test r14d, r14d
	mov r15, qword ptr [rbp - 144]
	mov r8d, dword ptr [rbp - 128]
	lea r13d, [r14 - 1]
	setg r14b
.L17:
	xor eax, eax
	test r8d, r8d
	je .L7
	mov dword ptr [rbp - 84], 0
	movzx eax, word ptr [rbx + 24]
	lea rsi, [rbp - 112]
	mov rdi, r12
	and eax, 32767
	lea rdx, [rbx + rax]
	call hl_dir_by_value_c_by_value_checkkeys
	movzx eax, byte ptr [rbp - 76]
	jmp .L7
.L15:
	cmp edi, esi
	mov r15, qword ptr [rbp - 120]
	mov r8d, dword ptr [rbp - 136]
	cmovg edi, esi
.L18:
	mov dword ptr [rbp - 84], edi
	jmp .L0
.L16:
	cmp edi, r11d
	mov r15, qword ptr [rbp - 120]
	mov r8d, dword ptr [rbp - 136]
	cmovg edi, r11d
	jmp .L18
.L9:
	movsx r14, dword ptr [r13 + 8]
	movsx r13, dword ptr [rdx + 8]
	jmp .L10
.L2:
	xor r14d, r14d
	mov r13d, -1
	jmp .L17
.L11:
	xor edi, edi
	jmp .L18
.L8:
	call __stack_chk_fail@PLT

hl_dir_by_value_c_by_value_checkkeys:
	push rbp
	mov rbp, rsp
	sub rsp, 16
	mov ecx, dword ptr [rsi + 28]
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 8], rax
	mov eax, dword ptr [rsi]
	lea r8, [rbp - 12]
	mov dword ptr [rbp - 12], ecx
	lea rcx, [rsi + 36]
	mov esi, eax
	call hl_bt_check_compare
	mov rdx, qword ptr [rbp - 8]
	sub rdx, qword ptr fs:[40]
	jne .L0
	leave
	ret
.L0:
	call __stack_chk_fail@PLT

hl_bt_check_compare:
	mov rax, rdi
	mov rdi, rdx
	mov edx, dword ptr [r8]
	mov r9, qword ptr [rax + 56]
	cmp dword ptr [r9 + 4], edx
	jle .L0
	push rbp
	mov r11d, esi
	mov rbp, rsp
	push r12
	mov r12, rcx
	push rbx
	mov rax, qword ptr [rax + 8]
	mov rbx, qword ptr [r9 + 8]
	movzx r10d, byte ptr [rax + 48]
	jmp .L1
.L2:
	cmp word ptr [rax + 6], 2
	mov rsi, qword ptr [rdi + 8]
	mov rcx, qword ptr [rax + 8]
	je .L3
.L4:
	cmp rsi, rcx
	jl .L5
.L6:
	add edx, 1
	mov dword ptr [r8], edx
	cmp edx, dword ptr [r9 + 4]
	jge .L7
.L1:
	movsx rax, edx
	sal rax, 4
	add rax, rbx
	test r10b, r10b
	jne .L2
	cmp word ptr [rax + 6], 2
	movsx rsi, dword ptr [rdi + 8]
	mov rcx, qword ptr [rax + 8]
	jne .L4
.L3:
	cmp rsi, rcx
	jle .L6
.L5:
	mov eax, dword ptr [rax]
	test eax, 65536
	je .L8
	cmp r11d, 1
	je .L9
.L8:
	test eax, 131072
	je .L10
	cmp r11d, -1
	je .L9
.L10:
	pop rbx
	xor eax, eax
	pop r12
	pop rbp
	ret
.L7:
	pop rbx
	mov eax, 1
	pop r12
	pop rbp
	ret
.L9:
	mov byte ptr [r12], 0
	jmp .L10
.L0:
	mov eax, 1
	ret
