# hotloops asm snapshot of `dir-by-value/c-by-value` under `gcc12-upstream` (csrc/nbtsearch_checkkeys.c)
# compiler: gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2 -D_GNU_SOURCE -DHL_CONFIG=gcc12_upstream
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __gcc12_upstream dropped

hotloops_dir_by_value_c_by_value:
	push r15
	mov eax, edx
	mov edx, r8d
	mov r9d, 1
	push r14
	push r13
	push r12
	push rbp
	mov rbp, rdi
	mov edi, ecx
	push rbx
	mov rbx, rsi
	sub rsp, 88
	mov rcx, qword ptr [rbp + 8]
	mov r14, qword ptr [rbp + 56]
	mov dword ptr [rsp + 32], 1
	movzx esi, byte ptr [rcx + 48]
	movzx ecx, word ptr [rbx + 16]
	mov qword ptr [rsp + 48], rbx
	lea r10, [r14 + 136]
	mov qword ptr [rsp + 8], r10
	mov r8d, dword ptr [rbx + rcx + 4]
	movzx ecx, word ptr [rbx + 12]
	mov qword ptr [rsp + 40], 0
	mov dword ptr [r14 + 112], 1
	cmp r8d, 1
	mov byte ptr [rsp + 56], dil
	sbb r9w, -1
	sub ecx, 24
	xor r10d, r10d
	xor r11d, r11d
	movsx rcx, ecx
	mov word ptr [rsp + 36], r9w
	shr rcx, 2
	mov byte ptr [rsp + 57], 0
	mov word ptr [rsp + 26], cx
	mov word ptr [rsp + 38], cx
	mov dword ptr [rsp + 60], 0
	mov word ptr [rsp + 64], ax
	mov word ptr [rsp + 66], r10w
	mov byte ptr [rsp + 68], 1
	mov dword ptr [rsp + 70], 0
	mov word ptr [rsp + 74], r11w
	cmp dil, 1
	je .L0
	cmp r9w, cx
	jb .L1
.L0:
	cmp r9w, ax
	cmovnb eax, r9d
	cmp cx, ax
	jb .L2
	mov qword ptr [rsp + 16], r14
	xor r15d, r15d
	lea r12, [rsp + 32]
	mov r14d, eax
	mov dword ptr [rsp + 28], r8d
	jmp .L3
.L4:
	add r14d, 1
	cmp word ptr [rsp + 26], r14w
	jb .L5
.L3:
	movzx eax, r14w
	mov rsi, r12
	mov rdi, rbp
	sub eax, 1
	cdqe
	movzx edx, word ptr [rbx + 4*rax + 24]
	mov word ptr [rsp + 64], r14w
	and edx, 32767
	lea r13, [rbx + rdx]
	mov rdx, r13
	call hl_dir_by_value_c_by_value_checkkeys
	test al, al
	je .L6
	movsx rax, r15d
	mov rdi, qword ptr [rsp + 8]
	mov esi, dword ptr [r13]
	add r15d, 1
	lea rax, [rax + 4*rax]
	lea rax, [rdi + 2*rax]
	mov dword ptr [rax], esi
	movzx edx, word ptr [r13 + 4]
	mov word ptr [rax + 6], r14w
	mov word ptr [rax + 4], dx
	xor edx, edx
	mov word ptr [rax + 8], dx
.L6:
	movzx eax, byte ptr [rsp + 68]
	test al, al
	jne .L4
	test r15d, r15d
	mov r14, qword ptr [rsp + 16]
	lea r13d, [r15 - 1]
	setg r12b
.L7:
	mov byte ptr [r14 + 121], al
	mov eax, r12d
	mov dword ptr [r14 + 124], 0
	mov dword ptr [r14 + 128], r13d
	mov dword ptr [r14 + 132], 0
	add rsp, 88
	pop rbx
	pop rbp
	pop r12
	pop r13
	pop r14
	pop r15
	ret
.L1:
	mov r10d, dword ptr [r14 + 4]
	mov edi, r10d
	sub edi, edx
	mov edx, 0
	cmovs edi, edx
	movzx edx, r9w
	sub edx, 1
	movsx rdx, edx
	movzx r11d, word ptr [rbx + 4*rdx + 24]
	movzx edx, cx
	sub edx, 1
	movsx rdx, edx
	and r11d, 32767
	movzx edx, word ptr [rbx + 4*rdx + 24]
	add r11, rbx
	and edx, 32767
	add rdx, rbx
	test sil, sil
	je .L8
	mov r11, qword ptr [r11 + 8]
	mov r12, qword ptr [rdx + 8]
.L9:
	test r10d, r10d
	jle .L10
	mov rsi, qword ptr [r14 + 8]
	lea rdx, [rsi + 6]
	xor esi, esi
	jmp .L11
.L12:
	cmp r11, r13
	setge r15b
	cmp r12, r13
	setge r13b
.L13:
	test r15b, r15b
	je .L14
	test r13b, r13b
	je .L14
	add esi, 1
	add rdx, 16
	cmp r10d, esi
	je .L15
.L11:
	cmp word ptr [rdx], 2
	mov r13, qword ptr [rdx + 2]
	jne .L12
	cmp r11, r13
	setle r15b
	cmp r12, r13
	setle r13b
	jmp .L13
.L5:
	test r15d, r15d
	mov r14, qword ptr [rsp + 16]
	mov r8d, dword ptr [rsp + 28]
	lea r13d, [r15 - 1]
	setg r12b
.L16:
	xor eax, eax
	test r8d, r8d
	je .L7
	mov dword ptr [rsp + 60], 0
	movzx eax, word ptr [rbx + 24]
	lea rsi, [rsp + 32]
	mov rdi, rbp
	and eax, 32767
	lea rdx, [rbx + rax]
	call hl_dir_by_value_c_by_value_checkkeys
	movzx eax, byte ptr [rsp + 68]
	jmp .L7
.L14:
	cmp edi, esi
	cmovg edi, esi
.L17:
	mov dword ptr [rsp + 60], edi
	jmp .L0
.L15:
	cmp edi, r10d
	cmovg edi, r10d
	jmp .L17
.L8:
	movsx r11, dword ptr [r11 + 8]
	movsx r12, dword ptr [rdx + 8]
	jmp .L9
.L2:
	xor r12d, r12d
	mov r13d, -1
	jmp .L16
.L10:
	xor edi, edi
	jmp .L17

hl_dir_by_value_c_by_value_checkkeys:
	sub rsp, 16
	mov ecx, dword ptr [rsi + 28]
	mov eax, dword ptr [rsi]
	lea r8, [rsp + 12]
	mov dword ptr [rsp + 12], ecx
	lea rcx, [rsi + 36]
	mov esi, eax
	call hl_bt_check_compare
	add rsp, 16
	ret

hl_bt_check_compare:
	push rbx
	mov rbx, rcx
	mov rcx, qword ptr [rdi + 56]
	mov r11, rdx
	mov r9, rdi
	mov edx, dword ptr [r8]
	mov r10d, esi
	cmp dword ptr [rcx + 4], edx
	jg .L0
	jmp .L1
.L2:
	cmp word ptr [rax + 6], 2
	mov rdi, qword ptr [r11 + 8]
	mov rsi, qword ptr [rax + 8]
	je .L3
.L4:
	cmp rdi, rsi
	jl .L5
.L6:
	add edx, 1
	mov dword ptr [r8], edx
	cmp edx, dword ptr [rcx + 4]
	jge .L1
.L0:
	mov rsi, qword ptr [r9 + 8]
	movsx rax, edx
	sal rax, 4
	add rax, qword ptr [rcx + 8]
	cmp byte ptr [rsi + 48], 0
	jne .L2
	cmp word ptr [rax + 6], 2
	movsx rdi, dword ptr [r11 + 8]
	mov rsi, qword ptr [rax + 8]
	jne .L4
.L3:
	cmp rdi, rsi
	jle .L6
.L5:
	mov eax, dword ptr [rax]
	test eax, 65536
	je .L7
	cmp r10d, 1
	je .L8
.L7:
	test eax, 131072
	je .L9
	cmp r10d, -1
	je .L8
.L9:
	xor eax, eax
.L10:
	pop rbx
	ret
.L1:
	mov eax, 1
	pop rbx
	ret
.L8:
	mov byte ptr [rbx], 0
	xor eax, eax
	jmp .L10
