# hotloops asm snapshot of `local-index/c-span` under `clang19-pg` (csrc/nbtree_bitmap.c)
# compiler: Debian clang version 19.1.7 (3~deb12u1)
# flags: -Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -gdwarf-4 -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer -D_FORTIFY_SOURCE=2 -D_GNU_SOURCE -DHL_CONFIG=clang19_pg
# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __clang19_pg dropped

hotloops_local_index_c_span:
	push rbp
	mov rbp, rsp
	push r15
	push r14
	push r13
	push r12
	push rbx
	sub rsp, 24
	mov qword ptr [rbp - 48], rdx
	mov r14, rsi
	mov rax, qword ptr [rdi + 8]
	mov qword ptr [rbp - 56], rax
	mov r13, qword ptr [rdi + 56]
	lea r12, [r13 + 136]
	xor ebx, ebx
	xor r15d, r15d
	jmp .L0
.L1:
	mov rdi, r13
	mov rsi, qword ptr [rbp - 56]
	call hl_bt_steppage@PLT
	test al, al
	je .L2
.L0:
	mov ecx, dword ptr [r13 + 128]
	mov eax, dword ptr [r13 + 132]
	mov edx, ecx
	sub edx, eax
	cmp edx, 2147483646
	ja .L3
	add edx, r15d
	inc edx
	cmp edx, 1359
	jl .L3
	mov rdi, qword ptr [rbp - 48]
	mov rsi, r14
	mov edx, r15d
	xor ecx, ecx
	call hl_tid_sink_add_tuples@PLT
	mov ecx, dword ptr [r13 + 128]
	mov eax, dword ptr [r13 + 132]
	xor r15d, r15d
.L3:
	cmp eax, ecx
	jg .L1
.L4:
	movsxd rcx, r15d
	inc r15d
	lea rcx, [rcx + 2*rcx]
	cdqe
	lea rax, [rax + 4*rax]
	movzx edx, word ptr [r12 + 2*rax + 4]
	mov word ptr [r14 + 2*rcx + 4], dx
	mov eax, dword ptr [r12 + 2*rax]
	mov dword ptr [r14 + 2*rcx], eax
	inc rbx
	mov eax, dword ptr [r13 + 132]
	inc eax
	mov dword ptr [r13 + 132], eax
	cmp eax, dword ptr [r13 + 128]
	jle .L4
	jmp .L1
.L2:
	test r15d, r15d
	jle .L5
	mov rdi, qword ptr [rbp - 48]
	mov rsi, r14
	mov edx, r15d
	xor ecx, ecx
	call hl_tid_sink_add_tuples@PLT
.L5:
	mov rax, rbx
	add rsp, 24
	pop rbx
	pop r12
	pop r13
	pop r14
	pop r15
	pop rbp
	ret
