# hotloops asm snapshot of `dir-by-value/opaque`
# rustc 1.95.0 (59807616e 2026-04-14), x86_64, release profile, cargo-show-asm 0.2.64; normalised

hotloops_dir_by_value_opaque:
	push rbp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 72
	mov qword ptr [rsp], rdi
	movzx edi, word ptr [rsi + 16]
	cmp rdi, 8193
	jae .L0
	mov ebp, edx
	mov edx, 8192
	sub rdx, rdi
	cmp rdi, 8189
	jae .L1
	cmp edi, 8185
	jae .L2
	mov r14, rsi
	mov rax, qword ptr [rsp]
	mov rdx, qword ptr [rax + 8]
	mov r13, qword ptr [rax + 56]
	mov r12d, dword ptr [rsi + rdi + 4]
	cmp r12d, 1
	mov ax, 2
	sbb ax, 0
	movzx edi, byte ptr [rdx + 48]
	movzx esi, word ptr [rsi + 12]
	add rsi, 262120
	mov r15d, esi
	shr r15d, 2
	mov dword ptr [r13 + 112], 1
	mov dword ptr [rsp + 16], 1
	mov word ptr [rsp + 20], ax
	mov word ptr [rsp + 22], r15w
	mov qword ptr [rsp + 24], 0
	mov qword ptr [rsp + 32], r14
	mov byte ptr [rsp + 40], cl
	mov byte ptr [rsp + 41], 0
	mov dword ptr [rsp + 44], 0
	mov word ptr [rsp + 48], bp
	mov word ptr [rsp + 50], 0
	mov byte ptr [rsp + 52], 1
	mov dword ptr [rsp + 54], 0
	mov word ptr [rsp + 58], 0
	test cl, cl
	jne .L3
	cmp ax, r15w
	jae .L3
	mov edx, dword ptr [r13 + 4]
	mov r9d, edx
	sub r9d, r8d
	xor ecx, ecx
	test r9d, r9d
	cmovg ecx, r9d
	movzx r8d, ax
	mov r8d, dword ptr [r14 + 4*r8 + 20]
	and r8d, 32767
	test dil, dil
	je .L4
	mov rdi, qword ptr [r14 + r8 + 8]
	and esi, 262140
	mov esi, dword ptr [r14 + rsi + 20]
	and esi, 32767
	mov rsi, qword ptr [r14 + rsi + 8]
	test edx, edx
	jg .L5
.L6:
	xor edi, edi
	mov dword ptr [rsp + 44], edi
.L3:
	cmp ax, bp
	cmova ebp, eax
	cmp bp, r15w
	jbe .L7
.L8:
	mov al, 1
	xor ebx, ebx
	test r12d, r12d
	setne cl
	test cl, al
	jne .L9
	jmp .L10
.L4:
	movsxd rdi, dword ptr [r14 + r8 + 8]
	and esi, 262140
	mov esi, dword ptr [r14 + rsi + 20]
	and esi, 32767
	movsxd rsi, dword ptr [r14 + rsi + 8]
	test edx, edx
	jle .L6
.L5:
	mov r8, qword ptr [r13 + 8]
	cmp rdi, rsi
	mov r9, rsi
	cmovl r9, rdi
	cmovg rsi, rdi
	add r8, 8
	xor edi, edi
	jmp .L11
.L12:
	cmp r10, r9
	jg .L13
.L14:
	inc rdi
	add r8, 16
	cmp rdx, rdi
	je .L15
.L11:
	cmp word ptr [r8 - 2], 2
	mov r10, qword ptr [r8]
	jne .L12
	cmp r10, rsi
	jge .L14
	jmp .L13
.L15:
	mov edi, edx
.L13:
	cmp ecx, edi
	cmovl edi, ecx
	mov dword ptr [rsp + 44], edi
	cmp ax, bp
	cmova ebp, eax
	cmp bp, r15w
	ja .L8
.L7:
	mov dword ptr [rsp + 12], r12d
	mov qword ptr [rsp + 64], r13
	add r13, 136
	xor ebx, ebx
.L16:
	movzx eax, bp
	mov r12d, dword ptr [r14 + 4*rax + 20]
	and r12d, 32767
	add r12, r14
	mov word ptr [rsp + 48], ax
	mov rdi, qword ptr [rsp]
	lea rsi, [rsp + 16]
	mov rdx, r12
	call qword ptr [rip + hl_dir_by_value_opaque_checkkeys@GOTPCREL]
	test al, al
	je .L17
	lea rax, [rbx + 4*rbx]
	mov ecx, dword ptr [r12]
	movzx edx, word ptr [r12 + 4]
	mov word ptr [r13 + 2*rax + 4], dx
	mov dword ptr [r13 + 2*rax], ecx
	mov word ptr [r13 + 2*rax + 6], bp
	mov word ptr [r13 + 2*rax + 8], 0
	inc rbx
.L17:
	movzx eax, byte ptr [rsp + 52]
	cmp al, 1
	jne .L18
	inc ebp
	cmp bp, r15w
	jbe .L16
.L18:
	mov r13, qword ptr [rsp + 64]
	mov r12d, dword ptr [rsp + 12]
	test r12d, r12d
	setne cl
	test cl, al
	je .L10
.L9:
	mov dword ptr [rsp + 44], 0
	mov edx, dword ptr [r14 + 24]
	and edx, 32767
	add rdx, r14
	lea rsi, [rsp + 16]
	mov rdi, qword ptr [rsp]
	call qword ptr [rip + hl_dir_by_value_opaque_checkkeys@GOTPCREL]
	movzx eax, byte ptr [rsp + 52]
.L10:
	test r12d, r12d
	setne cl
	and cl, al
	mov byte ptr [r13 + 121], cl
	mov dword ptr [r13 + 124], 0
	lea eax, [rbx - 1]
	mov dword ptr [r13 + 128], eax
	mov dword ptr [r13 + 132], 0
	test rbx, rbx
	setne al
	add rsp, 72
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L0:
	lea rcx, [rip + .Lanon]
	mov esi, 8192
	mov edx, 8192
	call qword ptr [rip + core::slice::index::slice_index_fail@GOTPCREL]
.L1:
	lea rcx, [rip + .Lanon]
	mov esi, 4
	xor edi, edi
	call qword ptr [rip + core::slice::index::slice_index_fail@GOTPCREL]
.L2:
	lea rcx, [rip + .Lanon]
	mov edi, 4
	mov esi, 8
	call qword ptr [rip + core::slice::index::slice_index_fail@GOTPCREL]

hl_dir_by_value_opaque_checkkeys:
	sub rsp, 24
	mov rax, qword ptr [rdi + 56]
	mov eax, dword ptr [rax + 112]
	mov ecx, dword ptr [rsi + 28]
	mov dword ptr [rsp], ecx
	lea rcx, [rsi + 36]
	mov r8, rsp
	mov esi, eax
	call qword ptr [rip + hl_bt_check_compare@GOTPCREL]
	add rsp, 24
	ret

hl_bt_check_compare:
	push r15
	push r14
	push r12
	push rbx
	mov r9, qword ptr [rdi + 56]
	movsxd r10, dword ptr [r8]
	mov al, 1
	cmp r10d, dword ptr [r9 + 4]
	jge .L0
	lea ebx, [r10 + 1]
	mov r11, r10
	shl r11, 4
	or r11, 8
	jmp .L1
.L2:
	cmp r15, r12
	jg .L3
.L4:
	inc r10
	mov dword ptr [r8], ebx
	movsxd r14, dword ptr [r9 + 4]
	inc ebx
	add r11, 16
	cmp r10, r14
	jge .L0
.L1:
	mov r14, qword ptr [rdi + 8]
	cmp byte ptr [r14 + 48], 0
	je .L5
	mov r15, qword ptr [rdx + 8]
	mov r14, qword ptr [r9 + 8]
	cmp word ptr [r14 + r11 - 2], 2
	mov r12, qword ptr [r14 + r11]
	je .L2
	jmp .L6
.L5:
	movsxd r15, dword ptr [rdx + 8]
	mov r14, qword ptr [r9 + 8]
	cmp word ptr [r14 + r11 - 2], 2
	mov r12, qword ptr [r14 + r11]
	je .L2
.L6:
	cmp r15, r12
	jge .L4
.L3:
	mov edx, dword ptr [r14 + r11 - 8]
	cmp esi, 1
	jne .L7
	mov eax, edx
	and eax, 65536
	jne .L8
.L7:
	xor eax, eax
	cmp esi, -1
	jne .L0
	and edx, 131072
	je .L0
.L8:
	mov byte ptr [rcx], 0
	xor eax, eax
.L0:
	pop rbx
	pop r12
	pop r14
	pop r15
	ret
