# hotloops asm snapshot of `dir-by-value/c-by-value` under `clang19-pg` (csrc/nbtsearch_checkkeys.c)
# compiler: Debian clang version 19.1.7 (3~deb12u1)
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -gdwarf-4 -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=clang19_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __clang19_pg dropped

hotloops_dir_by_value_c_by_value:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 104
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 48], rax
	mov rax, qword ptr [rdi + 8]
	mov qword ptr [rbp - 136], rdi
	mov r15, qword ptr [rdi + 56]
	movzx edi, byte ptr [rax + 48]
	movzx eax, word ptr [rsi + 16]
	mov r11d, dword ptr [rsi + rax + 4]
	xor eax, eax
	test r11d, r11d
	setne al
	mov r13d, eax
	inc r13d
	movzx r12d, word ptr [rsi + 12]
	add r12d, 262120
	shr r12d, 2
	mov dword ptr [r15 + 112], 1
	mov dword ptr [rbp - 96], 1
	mov word ptr [rbp - 92], r13w
	mov word ptr [rbp - 90], r12w
	mov qword ptr [rbp - 88], 0
	mov qword ptr [rbp - 80], rsi
	mov byte ptr [rbp - 72], cl
	mov byte ptr [rbp - 71], 0
	mov dword ptr [rbp - 68], 0
	mov word ptr [rbp - 64], dx
	mov word ptr [rbp - 62], 0
	mov byte ptr [rbp - 60], 1
	mov dword ptr [rbp - 58], 0
	mov word ptr [rbp - 54], 0
	test ecx, ecx
	mov qword ptr [rbp - 120], rsi
	jne .L0
	movzx r9d, r13w
	movzx r12d, r12w
	cmp r12d, r9d
	jbe .L0
	mov r14d, dword ptr [r15 + 4]
	mov r10d, r14d
	sub r10d, r8d
	xor ecx, ecx
	test r10d, r10d
	cmovg ecx, r10d
	mov rsi, qword ptr [rbp - 120]
	dec r9d
	mov r8d, dword ptr [rsi + 4*r9 + 24]
	and r8d, 32767
	test dil, dil
	je .L1
	mov rdi, qword ptr [rsi + r8 + 8]
	mov r8d, r12d
	mov r8d, dword ptr [rsi + 4*r8 + 20]
	and r8d, 32767
	mov r8, qword ptr [rsi + r8 + 8]
	test r14d, r14d
	jle .L2
.L3:
	mov dword ptr [rbp - 104], ecx
	mov qword ptr [rbp - 128], r12
	mov dword ptr [rbp - 100], r11d
	mov qword ptr [rbp - 112], r15
	mov r10, qword ptr [r15 + 8]
	add r10, 8
	xor r9d, r9d
.L4:
	mov rbx, qword ptr [r10]
	xor r15d, r15d
	xor r12d, r12d
	cmp rdi, rbx
	setle r15b
	setge r12b
	xor ecx, ecx
	xor r11d, r11d
	cmp r8, rbx
	setle cl
	setge r11b
	cmp word ptr [r10 - 2], 2
	cmove r12d, r15d
	cmove r11d, ecx
	cmp r12b, 1
	jne .L5
	test r11b, r11b
	je .L5
	inc r9
	add r10, 16
	cmp r14, r9
	jne .L4
	mov r9d, r14d
.L5:
	mov r15, qword ptr [rbp - 112]
	mov r11d, dword ptr [rbp - 100]
	mov r12, qword ptr [rbp - 128]
	mov rsi, qword ptr [rbp - 120]
	mov ecx, dword ptr [rbp - 104]
	jmp .L6
.L1:
	movsxd rdi, dword ptr [rsi + r8 + 8]
	mov r8d, dword ptr [rsi + 4*r12 + 20]
	and r8d, 32767
	movsxd r8, dword ptr [rsi + r8 + 8]
	test r14d, r14d
	jg .L3
.L2:
	xor r9d, r9d
.L6:
	cmp r9d, ecx
	cmovl ecx, r9d
	mov dword ptr [rbp - 68], ecx
.L0:
	cmp dx, r13w
	cmova r13d, edx
	xor ebx, ebx
	cmp r13w, r12w
	ja .L7
	mov dword ptr [rbp - 100], r11d
	mov qword ptr [rbp - 112], r15
	add r15, 136
	xor ebx, ebx
.L8:
	mov r14, r12
	movzx eax, r13w
	mov r12d, dword ptr [rsi + 4*rax + 20]
	and r12d, 32767
	add r12, rsi
	mov word ptr [rbp - 64], ax
	mov rdi, qword ptr [rbp - 136]
	lea rsi, [rbp - 96]
	mov rdx, r12
	call hl_dir_by_value_c_by_value_checkkeys
	test al, al
	je .L9
	movsxd rbx, ebx
	lea rax, [rbx + 4*rbx]
	movzx ecx, word ptr [r12 + 4]
	mov word ptr [r15 + 2*rax + 4], cx
	mov ecx, dword ptr [r12]
	mov dword ptr [r15 + 2*rax], ecx
	mov word ptr [r15 + 2*rax + 6], r13w
	mov word ptr [r15 + 2*rax + 8], 0
	inc ebx
.L9:
	movzx eax, byte ptr [rbp - 60]
	inc r13d
	mov r12, r14
	cmp r13w, r12w
	mov rsi, qword ptr [rbp - 120]
	ja .L10
	test al, al
	jne .L8
.L10:
	cmp dword ptr [rbp - 100], 0
	setne cl
	and al, cl
	mov r15, qword ptr [rbp - 112]
.L7:
	test al, al
	je .L11
	mov dword ptr [rbp - 68], 0
	mov edx, dword ptr [rsi + 24]
	and edx, 32767
	add rdx, rsi
	lea rsi, [rbp - 96]
	mov rdi, qword ptr [rbp - 136]
	call hl_dir_by_value_c_by_value_checkkeys
	movzx eax, byte ptr [rbp - 60]
	jmp .L12
.L11:
	xor eax, eax
.L12:
	mov byte ptr [r15 + 121], al
	mov dword ptr [r15 + 124], 0
	lea eax, [rbx - 1]
	mov dword ptr [r15 + 128], eax
	mov dword ptr [r15 + 132], 0
	test ebx, ebx
	setg al
	mov rcx, qword ptr fs:[40]
	cmp rcx, qword ptr [rbp - 48]
	jne .L13
	add rsp, 104
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
.L13:
	call __stack_chk_fail@PLT

hl_dir_by_value_c_by_value_checkkeys:
	push rbp
	mov rbp, rsp
	sub rsp, 16
	mov rax, qword ptr fs:[40]
	mov qword ptr [rbp - 8], rax
	mov eax, dword ptr [rsi]
	mov ecx, dword ptr [rsi + 28]
	mov dword ptr [rbp - 12], ecx
	lea rcx, [rsi + 36]
	lea r8, [rbp - 12]
	mov esi, eax
	call hl_bt_check_compare
	mov rcx, qword ptr fs:[40]
	cmp rcx, qword ptr [rbp - 8]
	jne .L0
	add rsp, 16
	pop rbp
	ret
.L0:
	call __stack_chk_fail@PLT

hl_bt_check_compare:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r12
	push rbx
	mov r9, qword ptr [rdi + 56]
	movsxd r10, dword ptr [r8]
	mov al, 1
	cmp r10d, dword ptr [r9 + 4]
	jge .L0
	mov r11, r10
	shl r11, 4
	or r11, 8
	lea ebx, [r10 + 1]
	jmp .L1
.L2:
	cmp r15, r12
	jg .L3
.L4:
	inc r10
	mov dword ptr [r8], ebx
	movsxd r14, dword ptr [r9 + 4]
	add r11, 16
	inc ebx
	cmp r10, r14
	jge .L0
.L1:
	mov r14, qword ptr [rdi + 8]
	cmp byte ptr [r14 + 48], 0
	je .L5
	mov r15, qword ptr [rdx + 8]
	jmp .L6
.L5:
	movsxd r15, dword ptr [rdx + 8]
.L6:
	mov r14, qword ptr [r9 + 8]
	cmp word ptr [r14 + r11 - 2], 2
	mov r12, qword ptr [r14 + r11]
	je .L2
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
	pop rbp
	ret
